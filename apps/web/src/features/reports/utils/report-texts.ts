/**
 * What the 'Informes' screen prints of a definition and of a run (docs/reports.md), and the period
 * a run is offered for. Periods are local dates (YYYY-MM-DD), both ends included.
 */
import { WEEKDAY_LABELS, type ReportFormat, type ReportKind, type ReportSchedule } from '@agua/shared';
import { formatInteger, LOCALE } from '@/lib/format';

export const FORMAT_LABELS: Readonly<Record<ReportFormat, string>> = { xlsx: 'Excel', pdf: 'PDF' };

/** 'Todos' (every device, also those added later), or the names of the chosen devices. */
export function devicesText(deviceIds: readonly string[] | null, deviceName: (id: string) => string): string {
  return deviceIds === null ? 'Todos' : deviceIds.map(deviceName).join(', ');
}

/** 'Ninguno', '1 destinatario', '3 destinatarios'. */
export function recipientsText(recipients: readonly string[]): string {
  const n = recipients.length;
  return n === 0 ? 'Ninguno' : n === 1 ? '1 destinatario' : `${formatInteger(n)} destinatarios`;
}

/** The kinds whose schedule names a day of the month (their period is a calendar month). */
export const usesDayOfMonth = (kind: ReportKind) => kind === 'monthly' || kind === 'overflows';

/** 'a las 07:00', but 'a la 01:30' (one o'clock is singular in Spanish). */
function atTime(time: string): string {
  return time.startsWith('01:') ? `a la ${time}` : `a las ${time}`;
}

/** 'Cada día a las 07:00', 'Cada lunes a las 07:00', 'El día 1 de cada mes a las 07:00', 'Solo bajo demanda'. */
export function scheduleText(kind: ReportKind, schedule: ReportSchedule | null | undefined): string {
  if (!schedule) return 'Solo bajo demanda';
  const at = atTime(schedule.time);
  if (kind === 'weekly') {
    const day = schedule.weekday ? WEEKDAY_LABELS[schedule.weekday - 1] : undefined;
    return day ? `Cada ${day} ${at}` : `Cada semana ${at}`;
  }
  if (usesDayOfMonth(kind)) return schedule.dayOfMonth ? `El día ${schedule.dayOfMonth} de cada mes ${at}` : `Cada mes ${at}`;
  return `Cada día ${at}`;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A local date as '27/11/2026' (the text itself is returned when it is not a date). */
export function dayText(day: string): string {
  const m = DAY.exec(day);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : day;
}

/** A run's period: '27/11/2026' for one day, '23/11/2026 – 29/11/2026' otherwise. */
export function periodText(from: string, to: string): string {
  return from === to ? dayText(from) : `${dayText(from)} – ${dayText(to)}`;
}

/** A local date as YYYY-MM-DD. */
export function toLocalDay(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

export interface Period {
  from: string;
  to: string;
}

/**
 * The last complete period of a kind in the browser's local time, as 'Generar ahora' offers it:
 * daily, yesterday; weekly, last Monday–Sunday; monthly and overflows, the previous calendar month.
 */
export function defaultPeriod(kind: ReportKind, now = new Date()): Period {
  const y = now.getFullYear();
  const m = now.getMonth();
  const d = now.getDate();
  if (kind === 'weekly') {
    // getDay(): Sunday 0 … Saturday 6; days since this week's Monday.
    const sinceMonday = (now.getDay() + 6) % 7;
    return { from: toLocalDay(new Date(y, m, d - sinceMonday - 7)), to: toLocalDay(new Date(y, m, d - sinceMonday - 1)) };
  }
  if (usesDayOfMonth(kind)) return { from: toLocalDay(new Date(y, m - 1, 1)), to: toLocalDay(new Date(y, m, 0)) };
  const yesterday = toLocalDay(new Date(y, m, d - 1));
  return { from: yesterday, to: yesterday };
}

/** Days from `from` to `to`, both included (0 or less when `to` is before `from`); null when either is not a date. */
export function periodDays(from: string, to: string): number | null {
  const a = DAY.exec(from);
  const b = DAY.exec(to);
  if (!a || !b) return null;
  const utc = (m: RegExpExecArray) => Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Math.round((utc(b) - utc(a)) / 86_400_000) + 1;
}

const kbFormat = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 1 });

/** A report file's size: '850 B', '12,4 KB', '3,2 MB'. */
export function fileSizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${kbFormat.format(bytes / 1024)} KB`;
  return `${kbFormat.format(bytes / (1024 * 1024))} MB`;
}

/** The first characters of a SHA-256, enough to compare by eye; the whole value goes in a tooltip. */
export function shortHash(sha256: string): string {
  return sha256.length > 12 ? `${sha256.slice(0, 12)}…` : sha256;
}
