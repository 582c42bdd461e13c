import { addDays, isoWeekday } from '@agua/shared';
import { localDateOf, localTimeOn } from '../water/local-days';

/** When a schedule fires: a local time on some ISO weekdays (docs/control.md "Schedules"). */
export interface ScheduleTimes {
  time: string;
  days: readonly number[];
}

/**
 * The instants a schedule fires in (fromMs, toMs], oldest first, in the server's local time: a
 * time the spring change skips fires at the first minute after the gap (02:30 → 03:00), one the
 * autumn change repeats fires once, at the first.
 */
export function occurrencesBetween(s: ScheduleTimes, fromMs: number, toMs: number): number[] {
  const out: number[] = [];
  const last = localDateOf(toMs);
  for (let date = addDays(localDateOf(fromMs), -1); date <= last; date = addDays(date, 1)) {
    if (!s.days.includes(isoWeekday(date))) continue;
    const at = localTimeOn(date, s.time);
    if (at > fromMs && at <= toMs) out.push(at);
  }
  return out;
}

/** The next `n` instants a schedule fires after `afterMs` (a year ahead at most). */
export function nextOccurrences(s: ScheduleTimes, afterMs: number, n: number): number[] {
  const out: number[] = [];
  if (s.days.length === 0) return out;
  let date = localDateOf(afterMs);
  for (let i = 0; i < 370 && out.length < n; i++, date = addDays(date, 1)) {
    if (!s.days.includes(isoWeekday(date))) continue;
    const at = localTimeOn(date, s.time);
    if (at > afterMs) out.push(at);
  }
  return out;
}
