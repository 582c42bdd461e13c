import { badRequest } from './errors';

/** Epoch milliseconds to the API's ISO 8601 UTC form; null stays null. */
export function iso(ms: number): string;
export function iso(ms: number | null): string | null;
export function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

const ISO_WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/i;

/**
 * A time sent to us (API.md requests, PROTOCOL.md `ts`): ISO 8601 with an offset; epoch ms or null.
 * Every field must exist on the calendar: `Date.parse` would roll 30 February into March.
 */
export function parseRequestTime(value: string): number | null {
  const m = ISO_WITH_OFFSET.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second = 0, offsetH = 0, offsetM = 0] = m.slice(1).map((v) => (v === undefined ? undefined : Number(v)));
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate(); // day 0 of the next month
  const valid =
    month! >= 1 && month! <= 12 && day! >= 1 && day! <= daysInMonth && hour! <= 23 && minute! <= 59 && second <= 59 && offsetH <= 23 && offsetM <= 59;
  if (!valid) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** A time range in epoch ms: from inclusive, to exclusive; an absent end is open. */
export interface MsRange {
  fromMs?: number;
  toMs?: number;
}

/** Request times of a range (API.md): ISO 8601 with an offset, from inclusive, to exclusive, from < to. */
export function parseRange(from: string | undefined, to: string | undefined): MsRange {
  const fromMs = from === undefined ? undefined : parseRequestTime(from);
  const toMs = to === undefined ? undefined : parseRequestTime(to);
  if (fromMs === null) throw badRequest('VALIDATION_FAILED', { field: 'from', message: 'ISO 8601 with offset required' });
  if (toMs === null) throw badRequest('VALIDATION_FAILED', { field: 'to', message: 'ISO 8601 with offset required' });
  if (fromMs !== undefined && toMs !== undefined && fromMs >= toMs) throw badRequest('RANGE_INVALID');
  return { ...(fromMs !== undefined ? { fromMs } : {}), ...(toMs !== undefined ? { toMs } : {}) };
}
