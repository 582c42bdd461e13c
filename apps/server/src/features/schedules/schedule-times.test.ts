import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localHHMM } from '../../lib/local-clock';
import { nextOccurrences, occurrencesBetween } from './schedule-times';

let previousTz: string | undefined;
beforeAll(() => {
  previousTz = process.env.TZ;
  process.env.TZ = 'Europe/Madrid';
});
afterAll(() => {
  if (previousTz === undefined) delete process.env.TZ;
  else process.env.TZ = previousTz;
});
const madrid = (local: string, offsetH: number) => Date.parse(`${local}+0${offsetH}:00`);
const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];

describe('schedule times (Europe/Madrid)', () => {
  it('02:30 on the spring change runs at 03:00; on the autumn change once, at the first 02:30', () => {
    const spring = occurrencesBetween({ time: '02:30', days: EVERY_DAY }, madrid('2026-03-29T00:00:00', 1), madrid('2026-03-29T12:00:00', 2));
    expect(spring).toEqual([madrid('2026-03-29T03:00:00', 2)]);
    const autumn = occurrencesBetween({ time: '02:30', days: EVERY_DAY }, madrid('2026-10-25T00:00:00', 2), madrid('2026-10-25T12:00:00', 1));
    expect(autumn).toEqual([madrid('2026-10-25T02:30:00', 2)]);
    expect(localHHMM(spring[0]!)).toBe('03:00');
  });

  it('only on the listed ISO weekdays; the next ones after an instant', () => {
    // 2026-11-30 is a Monday.
    const next = nextOccurrences({ time: '06:00', days: [1, 3] }, madrid('2026-11-30T06:00:00', 1), 3);
    expect(next).toEqual([madrid('2026-12-02T06:00:00', 1), madrid('2026-12-07T06:00:00', 1), madrid('2026-12-09T06:00:00', 1)]);
    expect(nextOccurrences({ time: '06:00', days: [] }, 0, 3)).toEqual([]);
  });
});
