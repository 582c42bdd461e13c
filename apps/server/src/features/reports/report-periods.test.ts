// The periods and schedule times of docs/reports.md, in Madrid's time zone (its DST changes: the
// last Sunday of March skips 02:00–03:00, the last Sunday of October repeats 02:00–03:00).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localTimeOn } from '../water/local-days';
import { duePeriods, lastCompletePeriod, periodBounds, requestedPeriod } from './report-periods';

let previousTz: string | undefined;
beforeAll(() => {
  previousTz = process.env.TZ;
  process.env.TZ = 'Europe/Madrid';
});
afterAll(() => {
  if (previousTz === undefined) delete process.env.TZ;
  else process.env.TZ = previousTz;
});

/** An instant from Madrid's wall clock in winter (UTC+1) or summer (UTC+2). */
const madrid = (iso: string, offsetH: number) => Date.parse(`${iso}+0${offsetH}:00`);

describe('report periods', () => {
  it('the last complete period: yesterday, last Monday–Sunday, last calendar month', () => {
    const wed = madrid('2026-11-25T00:30:00', 1);
    expect(lastCompletePeriod('daily', wed)).toEqual({ from: '2026-11-24', to: '2026-11-24' });
    expect(lastCompletePeriod('weekly', wed)).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(lastCompletePeriod('monthly', wed)).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(lastCompletePeriod('overflows', madrid('2026-03-01T08:00:00', 1))).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    // On a Monday the last complete week ended yesterday.
    expect(lastCompletePeriod('weekly', madrid('2026-11-23T07:00:00', 1))).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    // Just after local midnight of 1 January (still 31 December in UTC).
    expect(lastCompletePeriod('monthly', madrid('2027-01-01T00:10:00', 1))).toEqual({ from: '2026-12-01', to: '2026-12-31' });
  });

  it('a period covers local midnight to local midnight: 23 h and 25 h days', () => {
    const spring = periodBounds({ from: '2026-03-29', to: '2026-03-29' });
    expect((spring.toMs - spring.fromMs) / 3_600_000).toBe(23);
    const autumn = periodBounds({ from: '2026-10-25', to: '2026-10-25' });
    expect((autumn.toMs - autumn.fromMs) / 3_600_000).toBe(25);
    expect(spring.fromMs).toBe(madrid('2026-03-29T00:00:00', 1));
  });

  it('a time the clock skips runs at the first minute after the gap; a repeated one once', () => {
    expect(localTimeOn('2026-03-29', '02:30')).toBe(madrid('2026-03-29T03:00:00', 2));
    expect(localTimeOn('2026-03-29', '03:15')).toBe(madrid('2026-03-29T03:15:00', 2));
    expect(localTimeOn('2026-10-25', '02:30')).toBe(madrid('2026-10-25T02:30:00', 2));
    expect(localTimeOn('2026-11-25', '07:00')).toBe(madrid('2026-11-25T07:00:00', 1));
  });

  it('due periods: every time the schedule fired since the definition was enabled, the newest 7, oldest first', () => {
    const enabled = madrid('2026-11-01T12:00:00', 1);
    const now = madrid('2026-11-25T06:59:00', 1);
    const daily = duePeriods('daily', { time: '07:00' }, enabled, now);
    expect(daily).toHaveLength(7);
    expect(daily.map((d) => d.period.from)).toEqual(['2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23']);
    // Not before the definition: enabled at 12:00 on the 24th, the first time is the 25th's 07:00.
    expect(duePeriods('daily', { time: '07:00' }, madrid('2026-11-24T12:00:00', 1), now)).toEqual([]);
    expect(duePeriods('daily', { time: '07:00' }, madrid('2026-11-24T12:00:00', 1), now + 60_000).map((d) => d.period)).toEqual([{ from: '2026-11-24', to: '2026-11-24' }]);
    const weekly = duePeriods('weekly', { time: '06:00', weekday: 1 }, enabled, now);
    expect(weekly.map((d) => d.period)).toEqual([
      { from: '2026-10-26', to: '2026-11-01' },
      { from: '2026-11-02', to: '2026-11-08' },
      { from: '2026-11-09', to: '2026-11-15' },
      { from: '2026-11-16', to: '2026-11-22' },
    ]);
    const monthly = duePeriods('monthly', { time: '08:00', dayOfMonth: 2 }, madrid('2026-01-15T00:00:00', 1), now);
    // Fired on the 2nd of each month for the month before: the newest 7 are April to October.
    expect(monthly.map((d) => d.period.from)).toEqual(['2026-04-01', '2026-05-01', '2026-06-01', '2026-07-01', '2026-08-01', '2026-09-01', '2026-10-01']);
    expect(monthly.at(-1)!.atMs).toBe(madrid('2026-11-02T08:00:00', 1));
  });

  it('an on-demand period: both dates included, at most 366 days, not in the future, default the last complete one', () => {
    const now = madrid('2026-11-25T10:00:00', 1);
    expect(requestedPeriod('weekly', {}, now)).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(requestedPeriod('daily', { from: '2026-11-25', to: '2026-11-25' }, now)).toEqual({ from: '2026-11-25', to: '2026-11-25' });
    expect(() => requestedPeriod('daily', { from: '2026-11-26', to: '2026-11-26' }, now)).toThrow(expect.objectContaining({ code: 'PERIOD_IN_FUTURE' }));
    expect(() => requestedPeriod('daily', { from: '2025-11-23', to: '2026-11-24' }, now)).toThrow(expect.objectContaining({ code: 'PERIOD_TOO_LONG' }));
    expect(requestedPeriod('daily', { from: '2025-11-25', to: '2026-11-25' }, now)).toEqual({ from: '2025-11-25', to: '2026-11-25' });
    expect(() => requestedPeriod('daily', { from: '2026-02-30', to: '2026-03-01' }, now)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
    expect(() => requestedPeriod('daily', { from: '2026-11-02', to: '2026-11-01' }, now)).toThrow(expect.objectContaining({ code: 'RANGE_INVALID' }));
    expect(() => requestedPeriod('daily', { from: '2026-11-02' }, now)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
  });
});
