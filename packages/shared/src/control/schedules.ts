import { commandLabel } from '../devices/devices';

/**
 * Gate schedules (docs/control.md "Schedules"): the words and limits the server, the screens and
 * the alarms share.
 */
export const SCHEDULE_ACTIONS = ['abrir', 'cerrar'] as const;
export type ScheduleAction = (typeof SCHEDULE_ACTIONS)[number];

/** `time`: the schedule's own time; `duration`: the close after an `abrir` with a duration. */
export const SCHEDULE_TRIGGERS = ['time', 'duration'] as const;
export type ScheduleTrigger = (typeof SCHEDULE_TRIGGERS)[number];

export const SCHEDULE_RUN_STATUSES = ['pending', 'issued', 'skipped', 'missed', 'cancelled'] as const;
export type ScheduleRunStatus = (typeof SCHEDULE_RUN_STATUSES)[number];

export const SCHEDULE_RUN_STATUS_LABELS: Readonly<Record<ScheduleRunStatus, string>> = {
  pending: 'Pendiente',
  issued: 'Ejecutada',
  skipped: 'Omitida',
  missed: 'Perdida',
  cancelled: 'Cancelada',
};

export const SCHEDULE_LIMITS = {
  nameMax: 100,
  durationMinMin: 1,
  durationMinMax: 1440,
  defaultAlarmPriority: 3,
  /** A run goes at most this late; one due while the server was off goes at start if no older than this. */
  catchUpMs: 5 * 60_000,
  /** Older runs missed while off are recorded as missed, back to this far. */
  missedLookbackMs: 24 * 3_600_000,
  previewItems: 10,
  perDeviceMax: 50,
} as const;

export const ISO_WEEKDAY_LABELS: Readonly<Record<number, string>> = { 1: 'Lun', 2: 'Mar', 3: 'Mié', 4: 'Jue', 5: 'Vie', 6: 'Sáb', 7: 'Dom' };

/** A schedule's name unless given: 'Abrir 06:00'. */
export function defaultScheduleName(action: ScheduleAction, time: string): string {
  return `${commandLabel(action)} ${time}`;
}

/** The message of the `schedule_skipped` alarm. */
export function scheduleSkippedMessage(name: string, reason: string): string {
  return `Programación «${name}» omitida: ${reason}`;
}

/** Why a person's abrir/cerrar waits for 'Tomar control manual' (409 SCHEDULE_ACTIVE). */
export function scheduleActiveMessage(name: string, closeAtHHMM: string): string {
  return `La compuerta sigue la programación «${name}» (cierre a las ${closeAtHHMM}).`;
}

/** Why a run did not go, when it was not the command path that said so. */
export const SCHEDULE_REASONS = {
  MISSED: 'El servidor no estaba en marcha a la hora programada.',
  DELETED: 'La programación fue eliminada.',
} as const;
