/**
 * Spanish formatting of numbers, dates and relative times. The browser's own locale is used when
 * it is a Spanish one (es-MX writes 3.42, es-ES 3,42); any other browser gets plain 'es'.
 */
function pickLocale(): string {
  const candidates = typeof navigator === 'undefined' ? [] : [...(navigator.languages ?? []), navigator.language];
  const spanish = candidates.find((l) => typeof l === 'string' && l.toLowerCase().startsWith('es'));
  return spanish ?? 'es';
}

export const LOCALE = pickLocale();

const levelFormat = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const integerFormat = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });
const dateTimeFormat = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeStyle: 'medium' });
const timeFormat = new Intl.DateTimeFormat(LOCALE, { timeStyle: 'medium' });
const relativeFormat = new Intl.RelativeTimeFormat(LOCALE, { numeric: 'always', style: 'narrow' });
const oneDecimalFormat = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 1 });
// numeric 'auto' only for zero: 'ahora' rather than 'hace 0 s'.
const nowFormat = new Intl.RelativeTimeFormat(LOCALE, { numeric: 'auto', style: 'narrow' });

/** A level value with two decimals, e.g. '3,42'. */
export function formatNumber(value: number): string {
  return levelFormat.format(value);
}

/** A whole number (counts, percentages). */
export function formatInteger(value: number): string {
  return integerFormat.format(value);
}

/** A size on disk in MB below 1 GB, else in GB with one decimal, e.g. '312 MB', '79,4 GB'. */
export function formatBytes(bytes: number): string {
  const mb = bytes / 2 ** 20;
  if (mb < 1024) return `${integerFormat.format(Math.floor(mb))} MB`;
  return `${oneDecimalFormat.format(Math.floor((mb / 1024) * 10) / 10)} GB`;
}

/** A measured value with its unit, e.g. '3,42 m'. */
export function formatMeasure(value: number, unit: string | null | undefined): string {
  return unit ? `${formatNumber(value)} ${unit}` : formatNumber(value);
}

function toDate(value: string | number | Date): Date {
  return value instanceof Date ? value : new Date(value);
}

/** Absolute date and time, e.g. '22 nov 2026, 7:38:26'. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined) return '—';
  const d = toDate(value);
  return Number.isNaN(d.getTime()) ? '—' : dateTimeFormat.format(d);
}

/** Time of day only, for values that are obviously from today. */
export function formatTime(value: string | number | Date): string {
  const d = toDate(value);
  return Number.isNaN(d.getTime()) ? '—' : timeFormat.format(d);
}

/** Milliseconds between a past time and `now` (never negative: clocks drift a little). */
export function ageMs(value: string | number | Date, now: number): number {
  return Math.max(0, now - toDate(value).getTime());
}

/** Relative time in Spanish, e.g. 'hace 3 s', 'hace 5 min', 'hace 2 h'. */
export function formatRelative(value: string | number | Date | null | undefined, now: number): string {
  if (value === null || value === undefined) return '—';
  const t = toDate(value).getTime();
  if (Number.isNaN(t)) return '—';
  const seconds = Math.round(ageMs(t, now) / 1000);
  if (seconds < 1) return nowFormat.format(0, 'second');
  if (seconds < 60) return relativeFormat.format(-seconds, 'second');
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return relativeFormat.format(-minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return relativeFormat.format(-hours, 'hour');
  return relativeFormat.format(-Math.floor(hours / 24), 'day');
}

const clockFormats = new Map<string, Intl.DateTimeFormat>();
const dayFormats = new Map<string, Intl.DateTimeFormat>();

function cachedFormat(cache: Map<string, Intl.DateTimeFormat>, timeZone: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let format = cache.get(key);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat(LOCALE, { ...options, ...(timeZone ? { timeZone } : {}) });
    } catch {
      // A zone this browser does not know: its own is better than nothing.
      format = new Intl.DateTimeFormat(LOCALE, options);
    }
    cache.set(key, format);
  }
  return format;
}

/**
 * A time of day as HH:MM in a time zone (the installation's; the browser's when none), with its
 * day ('24/11') when that is not the day of `nowMs` there: 'hasta 14:30', 'hasta 02:15 del 25/11'.
 */
export function formatClockIn(value: string | number | Date, timeZone: string | undefined, nowMs = Date.now()): string {
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) return '—';
  const clock = cachedFormat(clockFormats, timeZone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(d);
  const day = cachedFormat(dayFormats, timeZone, { day: '2-digit', month: '2-digit' });
  const that = day.format(d);
  return that === day.format(new Date(nowMs)) ? clock : `${clock} del ${that}`;
}
