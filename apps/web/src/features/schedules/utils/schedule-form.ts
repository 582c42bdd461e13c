import { defaultScheduleName, SCHEDULE_LIMITS, type Schedule, type ScheduleAction } from '@agua/shared';
import { isApiError } from '@/lib/api-client';
import { sortDays } from './schedule-texts';

/**
 * The schedule form's values and what is sent. The form checks only what it needs to build the
 * request (a duration is a whole number); the values themselves are the server's to judge
 * (422 SCHEDULE_INVALID `{field, reason}`), and its reason is shown at the field it names.
 */
export interface ScheduleFormValues {
  action: ScheduleAction;
  /** 'HH:MM' as the time input gives it ('' when cleared). */
  time: string;
  days: number[];
  /** Minutes as typed; '' for none. Sent only with `abrir`. */
  durationMin: string;
  /** '' for the default name ('Abrir 06:00', following the action and time). */
  name: string;
  alarmPriority: string;
  enabled: boolean;
}

/** The fields a refusal may be shown at, in the form's order (any other is shown above the buttons). */
export const SCHEDULE_FIELDS = ['action', 'time', 'days', 'durationMin', 'name', 'alarmPriority'] as const;
export type ScheduleField = (typeof SCHEDULE_FIELDS)[number];
export type ScheduleFieldErrors = Partial<Record<ScheduleField, string>>;

export const NEW_SCHEDULE_VALUES: ScheduleFormValues = {
  action: 'abrir',
  time: '06:00',
  days: [1, 2, 3, 4, 5, 6, 7],
  durationMin: '',
  name: '',
  alarmPriority: String(SCHEDULE_LIMITS.defaultAlarmPriority),
  enabled: true,
};

/** A saved schedule in the form; a name that is its default is shown as the placeholder, so it follows a new time. */
export function toScheduleForm(s: Schedule): ScheduleFormValues {
  return {
    action: s.action,
    time: s.time,
    days: sortDays(s.days),
    durationMin: s.durationMin === null ? '' : String(s.durationMin),
    name: s.name === defaultScheduleName(s.action, s.time) ? '' : s.name,
    alarmPriority: String(s.alarmPriority),
    enabled: s.enabled,
  };
}

/** The placeholder of the name: the name it gets when left empty. */
export function namePlaceholder(values: Pick<ScheduleFormValues, 'action' | 'time'>): string {
  return defaultScheduleName(values.action, /^\d{2}:\d{2}$/.test(values.time) ? values.time : '06:00');
}

/** The body of a POST (without deviceId) or a PATCH: every field, so an edit says what the form shows. */
export interface ScheduleBody {
  action: ScheduleAction;
  time: string;
  days: number[];
  durationMin: number | null;
  name?: string;
  alarmPriority: number;
  enabled: boolean;
}

export function validateSchedule(values: ScheduleFormValues): { errors: ScheduleFieldErrors } | { body: ScheduleBody } {
  const errors: ScheduleFieldErrors = {};
  let durationMin: number | null = null;
  const typed = values.durationMin.trim();
  if (values.action === 'abrir' && typed !== '') {
    const n = Number(typed);
    if (!Number.isInteger(n)) errors.durationMin = 'Un número entero de minutos.';
    else durationMin = n;
  }
  if (Object.keys(errors).length > 0) return { errors };
  const name = values.name.trim();
  return {
    body: {
      action: values.action,
      time: values.time,
      days: sortDays(values.days),
      durationMin,
      // Empty: the default name, made from the action and time being saved (the server's on a create).
      ...(name ? { name } : /^\d{2}:\d{2}$/.test(values.time) ? { name: defaultScheduleName(values.action, values.time) } : {}),
      alarmPriority: Number(values.alarmPriority),
      enabled: values.enabled,
    },
  };
}

/** The field a refusal names (422 SCHEDULE_INVALID `{field, reason}`), with its reason; null for any other error. */
export function scheduleFieldError(error: unknown): { field: ScheduleField; message: string } | null {
  if (!isApiError(error) || error.code !== 'SCHEDULE_INVALID') return null;
  const details = error.details as { field?: unknown; reason?: unknown } | undefined;
  const field = details?.field;
  if (typeof field !== 'string' || !(SCHEDULE_FIELDS as readonly string[]).includes(field)) return null;
  return { field: field as ScheduleField, message: typeof details?.reason === 'string' && details.reason ? details.reason : error.message };
}

/** A refusal not tied to a field of the form (the gate unknown, too many schedules): its reason, else the message. */
export function scheduleFormError(error: unknown): string {
  if (isApiError(error) && error.code === 'SCHEDULE_INVALID') {
    const reason = (error.details as { reason?: unknown } | undefined)?.reason;
    if (typeof reason === 'string' && reason) return reason;
  }
  return error instanceof Error ? error.message : String(error);
}
