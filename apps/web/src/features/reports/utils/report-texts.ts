/**
 * What the 'Informes' screen prints of a definition and of a run (docs/reports.md), and the period
 * a run is offered for. Periods are local dates (YYYY-MM-DD), both ends included.
 */
import { lastCompletePeriodBefore, WEEKDAY_LABELS, type ReportFormat, type ReportKind, type ReportPeriod, type ReportSchedule } from '@agua/shared';
import { localDay } from '@/lib/day-range';
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

/**
 * The last complete period of a kind in the browser's local time, as 'Generar ahora' offers it
 * (the rule is shared with the server's schedule: yesterday, last Monday–Sunday, last month).
 */
export function defaultPeriod(kind: ReportKind, now = new Date()): ReportPeriod {
  return lastCompletePeriodBefore(kind, localDay(0, now));
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
