// Periods as screens, e-mails and the schedule share them (docs/reports.md "Periods").
import { describe, expect, it } from 'vitest';
import { addDays, dateLabel, isoWeekday, lastCompletePeriodBefore, periodDays, periodLabel } from './report-periods';

describe('period label', () => {
  it('prints one day alone and a range with a dash', () => {
    expect(periodLabel({ from: '2026-11-27', to: '2026-11-27' })).toBe('27/11/2026');
    expect(periodLabel({ from: '2026-11-23', to: '2026-11-29' })).toBe('23/11/2026 – 29/11/2026');
  });

  it('names a whole calendar month', () => {
    expect(periodLabel({ from: '2026-02-01', to: '2026-02-28' })).toBe('febrero de 2026');
    expect(periodLabel({ from: '2026-11-01', to: '2026-11-29' })).toBe('01/11/2026 – 29/11/2026');
  });

  it('leaves a text that is not a date as it is', () => {
    expect(dateLabel('mañana')).toBe('mañana');
  });

  it('counts the days of a period, both ends included', () => {
    expect(periodDays('2026-11-27', '2026-11-27')).toBe(1);
    expect(periodDays('2026-01-01', '2026-12-31')).toBe(365);
    expect(periodDays('2024-01-01', '2024-12-31')).toBe(366);
    expect(periodDays('2026-11-28', '2026-11-27')).toBe(0);
    // Across the change to summer time the count is still whole days.
    expect(periodDays('2026-03-28', '2026-03-30')).toBe(3);
    expect(periodDays('', '2026-11-27')).toBeNull();
  });
});

describe('last complete period before a date', () => {
  it('yesterday, last Monday–Sunday, last month; across a year', () => {
    expect(lastCompletePeriodBefore('daily', '2027-01-01')).toEqual({ from: '2026-12-31', to: '2026-12-31' });
    expect(lastCompletePeriodBefore('weekly', '2026-11-29')).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(lastCompletePeriodBefore('weekly', '2026-11-30')).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(lastCompletePeriodBefore('monthly', '2027-01-15')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(lastCompletePeriodBefore('overflows', '2024-03-01')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
  });

  it('calendar arithmetic', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(isoWeekday('2026-11-30')).toBe(1);
    expect(isoWeekday('2026-11-29')).toBe(7);
  });
});
