/**
 * Times of a schedule as the installation reads them: in its time zone (GET /config `timezone`, a
 * Schedule's `timezone`), never the browser's. A zone this browser does not know falls back to the
 * browser's own rather than failing.
 */

export interface ZonedParts {
  /** 'YYYY-MM-DD' in the zone. */
  day: string;
  year: number;
  month: number;
  date: number;
  /** 'HH:MM', 24 h. */
  clock: string;
  hour: number;
  /** 1 Monday … 7 Sunday. */
  isoWeekday: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };
const DAY_MS = 86_400_000;

function partsFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let format = formats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', weekday: 'short' };
    try {
      format = new Intl.DateTimeFormat('en-GB', { ...options, ...(timeZone ? { timeZone } : {}) });
    } catch {
      format = new Intl.DateTimeFormat('en-GB', options);
    }
    formats.set(key, format);
  }
  return format;
}

export function zonedParts(value: string | number | Date, timeZone: string | undefined): ZonedParts | null {
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return null;
  const parts = Object.fromEntries(partsFormat(timeZone).formatToParts(d).map((p) => [p.type, p.value]));
  const year = Number(parts.year);
  const month = Number(parts.month);
  const date = Number(parts.day);
  const hour = Number(parts.hour) % 24;
  const clock = `${String(hour).padStart(2, '0')}:${parts.minute}`;
  return { day: `${parts.year}-${parts.month}-${parts.day}`, year, month, date, clock, hour, isoWeekday: WEEKDAYS[parts.weekday ?? ''] ?? 1 };
}

/** The calendar day `offset` days after 'YYYY-MM-DD' (no time zone involved: calendar arithmetic). */
export function addDays(day: string, offset: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d) + offset * DAY_MS).toISOString().slice(0, 10);
}

const WEEKDAY_SHORT = ['', 'lun', 'mar', 'mié', 'jue', 'vie', 'sáb', 'dom'];
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A run's moment, short: 'hoy 06:00', 'mañana 06:00', 'ayer 22:15', or 'lun 30/11 06:00' (with the
 * year when it is not this year's: 'lun 30/11/2025 06:00').
 */
export function formatZonedWhen(value: string | number | Date, timeZone: string | undefined, nowMs = Date.now()): string {
  const at = zonedParts(value, timeZone);
  const now = zonedParts(nowMs, timeZone);
  if (!at || !now) return '—';
  if (at.day === now.day) return `hoy ${at.clock}`;
  if (at.day === addDays(now.day, 1)) return `mañana ${at.clock}`;
  if (at.day === addDays(now.day, -1)) return `ayer ${at.clock}`;
  const year = at.year === now.year ? '' : `/${at.year}`;
  return `${WEEKDAY_SHORT[at.isoWeekday]} ${pad(at.date)}/${pad(at.month)}${year} ${at.clock}`;
}

/** 'HH:MM', with its day when that is not today there: '06:30', '02:15 del 25/11'. */
export function formatZonedClock(value: string | number | Date, timeZone: string | undefined, nowMs = Date.now()): string {
  const at = zonedParts(value, timeZone);
  const now = zonedParts(nowMs, timeZone);
  if (!at || !now) return '—';
  return at.day === now.day ? at.clock : `${at.clock} del ${pad(at.date)}/${pad(at.month)}`;
}

/** 'a la' before one o'clock, 'a las' before any other hour: 'a la 01:30', 'a las 06:00'. */
export function atThe(clock: string): string {
  return clock.startsWith('01:') ? `a la ${clock}` : `a las ${clock}`;
}
