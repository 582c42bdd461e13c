import { badRequest } from './errors';

/** Epoch milliseconds to the API's ISO 8601 UTC form; null stays null. */
export function iso(ms: number): string;
export function iso(ms: number | null): string | null;
export function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

const ISO_WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/i;

/**
 * A time sent to us (docs/api.md requests, docs/protocol.md `ts`): ISO 8601 with an offset; epoch ms or null.
 * Every field must exist on the calendar: `Date.parse` would roll 30 February into March.
 */
export function parseRequestTime(value: string): number | null {
  const m = ISO_WITH_OFFSET.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second = 0, offsetH = 0, offsetM = 0] = m.slice(1).map((v) => (v === undefined ? undefined : Number(v)));
  const daysInMonth = daysIn(year!, month!);
  const valid =
    month! >= 1 && month! <= 12 && day! >= 1 && day! <= daysInMonth && hour! <= 23 && minute! <= 59 && second <= 59 && offsetH <= 23 && offsetM <= 59;
  if (!valid) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** Days of a month (1-12); setUTCFullYear, as Date.UTC reads years 0-99 as 1900-1999 (year 0 is a leap year, 1900 is not). */
function daysIn(year: number, month: number): number {
  const lastDay = new Date(0);
  lastDay.setUTCFullYear(year, month, 0); // day 0 of the next month
  return lastDay.getUTCDate();
}

/**
 * The instants a range may name: years 0000 to 9999 in UTC, the ones an answer can write back in
 * ISO 8601 (`9999-12-31T23:59:59-05:00` is in year 10000 in UTC, which would print `+010000-…`).
 */
const REQUEST_TIME_MIN_MS = Date.parse('0000-01-01T00:00:00Z');
const REQUEST_TIME_MAX_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** A time range in epoch ms: from inclusive, to exclusive; an absent end is open. */
export interface MsRange {
  fromMs?: number;
  toMs?: number;
}

/** Request times of a range (docs/api.md): ISO 8601 with an offset, from inclusive, to exclusive, from < to. */
export function parseRange(from: string | undefined, to: string | undefined): MsRange {
  const fromMs = from === undefined ? undefined : parseRequestTime(from);
  const toMs = to === undefined ? undefined : parseRequestTime(to);
  if (fromMs === null) throw badRequest('VALIDATION_FAILED', { field: 'from', message: 'ISO 8601 with offset required' });
  if (toMs === null) throw badRequest('VALIDATION_FAILED', { field: 'to', message: 'ISO 8601 with offset required' });
  for (const [field, ms] of [['from', fromMs], ['to', toMs]] as const) {
    if (ms !== undefined && (ms < REQUEST_TIME_MIN_MS || ms > REQUEST_TIME_MAX_MS)) throw badRequest('TIME_OUT_OF_RANGE', { field });
  }
  if (fromMs !== undefined && toMs !== undefined && fromMs >= toMs) throw badRequest('RANGE_INVALID');
  return { ...(fromMs !== undefined ? { fromMs } : {}), ...(toMs !== undefined ? { toMs } : {}) };
}

/**
 * A range with both ends, for figures over a window (trends, alarm statistics): an absent `to` is
 * now, an absent `from` is `defaultSpanMs` before `to` (never before year 0000); from < to.
 */
export function closedRange(range: MsRange, defaultSpanMs: number, nowMs: number): { fromMs: number; toMs: number } {
  const toMs = range.toMs ?? nowMs;
  const fromMs = range.fromMs ?? Math.max(REQUEST_TIME_MIN_MS, toMs - defaultSpanMs);
  if (fromMs >= toMs) throw badRequest('RANGE_INVALID');
  return { fromMs, toMs };
}
