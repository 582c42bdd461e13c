import { addDays, isoWeekday, lastCompletePeriodBefore, periodDays, REPORT_LIMITS, type ReportKind, type ReportPeriod, type ReportSchedule } from '@agua/shared';
import { badRequest } from '../../lib/errors';
import { localDateOf, localTimeOn, startOfLocalDate } from '../water/local-days';

/** A run's period: local dates, both included (docs/reports.md "Periods"). */
export type Period = ReportPeriod;

const DAY_MS = 86_400_000;

/** The instants a period covers: its first local midnight to the one after its last day. */
export function periodBounds(p: Period): { fromMs: number; toMs: number } {
  return { fromMs: startOfLocalDate(p.from)!, toMs: startOfLocalDate(addDays(p.to, 1))! };
}

/** The last complete period of a kind at `nowMs`, in the server's local time. */
export function lastCompletePeriod(kind: ReportKind, nowMs: number): Period {
  return lastCompletePeriodBefore(kind, localDateOf(nowMs));
}

/**
 * The period of an on-demand run: from–to as asked (both included, `to` not before `from`, at
 * most REPORT_LIMITS.periodDaysMax days, not in the future), or the last complete one.
 */
export function requestedPeriod(kind: ReportKind, q: { from?: string; to?: string }, nowMs: number): Period {
  if (q.from === undefined && q.to === undefined) return lastCompletePeriod(kind, nowMs);
  if (q.from === undefined || q.to === undefined) throw badRequest('VALIDATION_FAILED', { field: q.from === undefined ? 'from' : 'to', message: 'from and to go together' });
  for (const field of ['from', 'to'] as const) {
    if (startOfLocalDate(q[field]!) === null) throw badRequest('VALIDATION_FAILED', { field, message: 'a date YYYY-MM-DD on the calendar required' });
  }
  const period = { from: q.from, to: q.to };
  if (q.to < q.from) throw badRequest('RANGE_INVALID');
  if (periodDays(period.from, period.to)! > REPORT_LIMITS.periodDaysMax) throw badRequest('PERIOD_TOO_LONG');
  if (q.from > localDateOf(nowMs)) throw badRequest('PERIOD_IN_FUTURE');
  return period;
}

/** Whether a schedule fires on a local date. */
function firesOn(kind: ReportKind, s: ReportSchedule, date: string): boolean {
  if (kind === 'daily') return true;
  if (kind === 'weekly') return isoWeekday(date) === s.weekday;
  return Number(date.slice(8)) === s.dayOfMonth;
}

/** How far back a schedule's missed times are looked for: 7 monthly periods and a margin. */
const LOOKBACK_DAYS = 7 * 31 + 31;

/**
 * The scheduled runs due at `nowMs`: for each time the schedule fired after `sinceMs` (the
 * definition's creation or enabling) and up to now, the last complete period at that time — the
 * newest REPORT_LIMITS.catchUpPeriods of them, oldest first. Already made runs are the caller's
 * to skip (the unique schedule key).
 */
export function duePeriods(kind: ReportKind, s: ReportSchedule, sinceMs: number, nowMs: number): Array<{ period: Period; atMs: number }> {
  const due: Array<{ period: Period; atMs: number }> = [];
  const first = localDateOf(Math.max(sinceMs, nowMs - LOOKBACK_DAYS * DAY_MS));
  const today = localDateOf(nowMs);
  for (let date = first; date <= today; date = addDays(date, 1)) {
    if (!firesOn(kind, s, date)) continue;
    const atMs = localTimeOn(date, s.time);
    if (atMs <= sinceMs || atMs > nowMs) continue;
    due.push({ period: lastCompletePeriod(kind, atMs), atMs });
  }
  return due.slice(-REPORT_LIMITS.catchUpPeriods);
}
