import { MAX_DAILY_DAYS } from '@agua/shared';
import { badRequest } from '../../lib/errors';

/** One local day: its date and its bounds, local midnight to the next (23 to 25 hours). */
export interface LocalDay {
  /** YYYY-MM-DD in the process's TZ. */
  date: string;
  fromMs: number;
  toMs: number;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** The local midnight at or before `tsMs` (the process's TZ, docs/water.md). */
export function localMidnight(tsMs: number): number {
  const d = new Date(tsMs);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** The local midnight after the one given: 23, 24 or 25 hours later. */
export function nextLocalMidnight(midnightMs: number): number {
  const d = new Date(midnightMs);
  d.setDate(d.getDate() + 1);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** The local date of an instant, YYYY-MM-DD. */
export function localDateOf(tsMs: number): string {
  const d = new Date(tsMs);
  return `${String(d.getFullYear()).padStart(4, '0')}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** A date on the calendar as [year, month (1–12), day], or null (no 30 February). */
function calendarDate(value: string): [number, number, number] | null {
  const m = DATE.exec(value);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1 || mo < 1 || mo > 12 || d < 1) return null;
  const check = new Date(0);
  check.setUTCFullYear(y, mo, 0); // the last day of that month
  return d <= check.getUTCDate() ? [y, mo, d] : null;
}

/** Days between two calendar dates, by the calendar (not by the clock, which skips or repeats an hour). */
function daysBetween(a: [number, number, number], b: [number, number, number]): number {
  const utc = ([y, mo, d]: [number, number, number]) => {
    const t = new Date(0);
    t.setUTCFullYear(y, mo - 1, d);
    return t.getTime();
  };
  return Math.round((utc(b) - utc(a)) / DAY_MS);
}

/** The local midnight that starts a calendar date. */
function startOf([y, mo, d]: [number, number, number]): number {
  const t = new Date(0);
  t.setFullYear(y, mo - 1, d);
  t.setHours(0, 0, 0, 0);
  return t.getTime();
}

/** The local midnight that starts a date YYYY-MM-DD, or null for a string that is not one. */
export function startOfLocalDate(date: string): number | null {
  const d = calendarDate(date);
  return d ? startOf(d) : null;
}

/**
 * The local days from `from` (inclusive) to `to` (exclusive), both YYYY-MM-DD, oldest first.
 * A date not on the calendar is `400 VALIDATION_FAILED` naming its field; `from` not before `to`
 * `400 RANGE_INVALID`; more than MAX_DAILY_DAYS days `400 TOO_MANY_DAYS` (docs/api.md).
 */
export function localDays(from: string, to: string): LocalDay[] {
  const a = calendarDate(from);
  if (!a) throw badRequest('VALIDATION_FAILED', { field: 'from', message: 'a date YYYY-MM-DD on the calendar required' });
  const b = calendarDate(to);
  if (!b) throw badRequest('VALIDATION_FAILED', { field: 'to', message: 'a date YYYY-MM-DD on the calendar required' });
  const count = daysBetween(a, b);
  if (count <= 0) throw badRequest('RANGE_INVALID');
  if (count > MAX_DAILY_DAYS) throw badRequest('TOO_MANY_DAYS', { max: MAX_DAILY_DAYS });
  const days: LocalDay[] = [];
  let fromMs = startOf(a);
  for (let i = 0; i < count; i++) {
    const toMs = nextLocalMidnight(fromMs);
    days.push({ date: localDateOf(fromMs), fromMs, toMs });
    fromMs = toMs;
  }
  return days;
}

/** The local days from the one holding `fromMs` to the one holding `toMs`, both included. */
export function localDaysSpanning(fromMs: number, toMs: number): LocalDay[] {
  const days: LocalDay[] = [];
  for (let start = localMidnight(fromMs); start <= toMs; ) {
    const end = nextLocalMidnight(start);
    days.push({ date: localDateOf(start), fromMs: start, toMs: end });
    start = end;
  }
  return days;
}

const HHMM = /^(\d{2}):(\d{2})$/;

/**
 * The instant a local date's HH:MM happens. A time the clock skips (the spring change) is the
 * first minute after the gap; a time it repeats (the autumn change) its first occurrence.
 */
export function localTimeOn(date: string, time: string): number {
  const [, hh, mm] = HHMM.exec(time)!.map(Number) as [number, number, number];
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const at = new Date(y, m - 1, d, hh, mm, 0, 0);
  if (at.getHours() === hh && at.getMinutes() === mm) return at.getTime();
  // Skipped: Date moved forward by the gap; the gap ends at the first minute whose wall clock is past HH:MM.
  let t = at.getTime();
  while (wallMinutes(t - 60_000) > hh * 60 + mm && localDateOf(t - 60_000) === date) t -= 60_000;
  return t;
}

const wallMinutes = (t: number) => {
  const d = new Date(t);
  return d.getHours() * 60 + d.getMinutes();
};
