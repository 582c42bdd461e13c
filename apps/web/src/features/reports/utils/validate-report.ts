/**
 * The definition form's values, their check in the browser and the body they become. The server
 * checks again (422 with its own words): this only spares a round trip for what is plainly wrong.
 */
import { isEmailAddress, periodDays, REPORT_FORMATS, REPORT_LIMITS, type Report, type ReportPeriod, type ReportFormat, type ReportInput, type ReportKind, type ReportSchedule } from '@agua/shared';
import { usesDayOfMonth } from './report-texts';

export interface ReportFormValues {
  name: string;
  kind: ReportKind;
  /** true: every device (`deviceIds: null`), also those added later. */
  allDevices: boolean;
  deviceIds: string[];
  formats: ReportFormat[];
  /** Recipients that are users (their ids). */
  userIds: string[];
  /** Free e-mail addresses, one per line or separated by commas. */
  emails: string;
  scheduled: boolean;
  /** HH:MM. */
  time: string;
  /** '1' (Monday) … '7' (Sunday); weekly only. */
  weekday: string;
  /** '1' … '28'; monthly and overflows only. */
  dayOfMonth: string;
  enabled: boolean;
}

export type ReportField = 'name' | 'kind' | 'deviceIds' | 'formats' | 'recipients' | 'time' | 'weekday' | 'dayOfMonth';
export type ReportFieldErrors = Partial<Record<ReportField, string>>;

/** The order errors are focused in: the form's order. */
export const REPORT_FIELD_ORDER: readonly ReportField[] = ['name', 'kind', 'deviceIds', 'formats', 'recipients', 'time', 'weekday', 'dayOfMonth'];

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export const NEW_REPORT_VALUES: ReportFormValues = {
  name: '',
  kind: 'daily',
  allDevices: true,
  deviceIds: [],
  formats: [...REPORT_FORMATS],
  userIds: [],
  emails: '',
  scheduled: true,
  time: '07:00',
  weekday: '1',
  dayOfMonth: '1',
  enabled: true,
};

/** A stored definition as the form shows it. */
export function toReportForm(report: Report): ReportFormValues {
  const schedule = report.schedule;
  return {
    name: report.name,
    kind: report.kind,
    allDevices: report.deviceIds === null,
    deviceIds: report.deviceIds ?? [],
    formats: [...report.formats],
    userIds: report.recipients.filter((r) => !isEmailAddress(r)),
    emails: report.recipients.filter(isEmailAddress).join('\n'),
    scheduled: schedule !== null,
    time: schedule?.time ?? NEW_REPORT_VALUES.time,
    weekday: String(schedule?.weekday ?? NEW_REPORT_VALUES.weekday),
    dayOfMonth: String(schedule?.dayOfMonth ?? NEW_REPORT_VALUES.dayOfMonth),
    enabled: report.enabled,
  };
}

/** The addresses of the e-mail field: split on new lines, commas, semicolons or spaces; repeats once. */
export function parseEmails(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of text.split(/[\s,;]+/)) {
    const address = part.trim();
    if (!address || seen.has(address.toLowerCase())) continue;
    seen.add(address.toLowerCase());
    out.push(address);
  }
  return out;
}

function scheduleOf(v: ReportFormValues, errors: ReportFieldErrors): ReportSchedule | null {
  if (!v.scheduled) return null;
  if (!TIME.test(v.time)) errors.time = 'Indique la hora (HH:MM).';
  const schedule: ReportSchedule = { time: v.time };
  if (v.kind === 'weekly') {
    const weekday = Number(v.weekday);
    if (!Number.isInteger(weekday) || weekday < 1 || weekday > 7) errors.weekday = 'Elija el día de la semana.';
    else schedule.weekday = weekday;
  }
  if (usesDayOfMonth(v.kind)) {
    const day = Number(v.dayOfMonth);
    if (v.dayOfMonth.trim() === '' || !Number.isInteger(day) || day < 1 || day > 28) errors.dayOfMonth = 'Indique un día del mes del 1 al 28.';
    else schedule.dayOfMonth = day;
  }
  return schedule;
}

/** The body of POST /reports or PUT /reports/{id}, or the errors of each field. */
export function validateReport(v: ReportFormValues): { input: ReportInput } | { errors: ReportFieldErrors } {
  const errors: ReportFieldErrors = {};
  const name = v.name.trim();
  if (!name) errors.name = 'Indique un nombre.';
  else if (name.length > REPORT_LIMITS.nameMax) errors.name = `El nombre admite hasta ${REPORT_LIMITS.nameMax} caracteres.`;

  if (!v.allDevices && v.deviceIds.length === 0) errors.deviceIds = 'Elija al menos un dispositivo, o «Todos los dispositivos».';
  if (v.formats.length === 0) errors.formats = 'Elija al menos un formato.';

  const emails = parseEmails(v.emails);
  const wrong = emails.filter((e) => !isEmailAddress(e));
  const recipients = [...new Set(v.userIds), ...emails];
  if (wrong.length > 0) errors.recipients = `No ${wrong.length === 1 ? 'es una dirección de correo válida' : 'son direcciones de correo válidas'}: ${wrong.join(', ')}.`;
  else if (recipients.length > REPORT_LIMITS.recipientsMax) errors.recipients = `Hasta ${REPORT_LIMITS.recipientsMax} destinatarios.`;

  const schedule = scheduleOf(v, errors);
  if (Object.keys(errors).length > 0) return { errors };
  return {
    input: {
      name,
      kind: v.kind,
      deviceIds: v.allDevices ? null : [...new Set(v.deviceIds)],
      // In the order the server lists them, whatever order they were ticked in.
      formats: REPORT_FORMATS.filter((f) => v.formats.includes(f)),
      recipients,
      schedule,
      enabled: v.enabled,
    },
  };
}

/**
 * 'Desde' and 'Hasta' of 'Generar ahora' (local dates, both included), or the errors of each.
 * `today` is the browser's local date: a period starting after it has no data (the server says
 * PERIOD_IN_FUTURE by its own calendar too).
 */
export function validatePeriod(from: string, to: string, today: string): { period: ReportPeriod } | { errors: { from?: string; to?: string } } {
  const errors: { from?: string; to?: string } = {};
  if (!DAY.test(from)) errors.from = 'Indique la fecha de inicio.';
  if (!DAY.test(to)) errors.to = 'Indique la fecha de fin.';
  if (errors.from || errors.to) return { errors };
  if (from > today) return { errors: { from: 'El periodo no puede empezar en el futuro.' } };
  const days = periodDays(from, to) ?? 0;
  if (days < 1) return { errors: { to: '«Hasta» no puede ser anterior a «Desde».' } };
  if (days > REPORT_LIMITS.periodDaysMax) return { errors: { to: `El periodo admite hasta ${REPORT_LIMITS.periodDaysMax} días.` } };
  return { period: { from, to } };
}
