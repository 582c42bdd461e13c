import {
  commandLabel,
  ERROR_MESSAGES,
  ISO_WEEKDAY_LABELS,
  SCHEDULE_RUN_STATUS_LABELS,
  type Device,
  type Schedule,
  type SchedulePreview,
  type ScheduleRun,
  type ScheduleRunStatus,
  type ScheduleTrigger,
} from '@agua/shared';
import { atThe, formatZonedClock, formatZonedWhen } from './zoned-time';

export const ALL_DAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export const WORKDAYS = [1, 2, 3, 4, 5] as const;
const WEEKEND = [6, 7] as const;

const sameDays = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((d, i) => d === b[i]);

/** ISO weekdays in order, without repeats. */
export function sortDays(days: readonly number[]): number[] {
  return [...new Set(days)].sort((a, b) => a - b);
}

/** 'Todos los días', 'Laborables', 'Fines de semana', or the days: 'Lun, Mié, Vie'. */
export function daysText(days: readonly number[]): string {
  const sorted = sortDays(days);
  if (sorted.length === 0) return 'Ningún día';
  if (sameDays(sorted, ALL_DAYS)) return 'Todos los días';
  if (sameDays(sorted, WORKDAYS)) return 'Laborables';
  if (sameDays(sorted, WEEKEND)) return 'Fines de semana';
  return sorted.map((d) => ISO_WEEKDAY_LABELS[d] ?? String(d)).join(', ');
}

/** '30 min', '1 h', '1 h 30 min'. */
export function minutesText(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

/** The close-after of an `abrir`: 'y cierra a los 30 min', 'y cierra a los 90 min (1 h 30 min)'; null without one. */
export function durationText(durationMin: number | null): string | null {
  if (durationMin === null) return null;
  return durationMin < 60 ? `y cierra a los ${durationMin} min` : `y cierra a los ${durationMin} min (${minutesText(durationMin)})`;
}

/** 'Abrir a las 06:00 · Laborables'. */
export function scheduleSummary(s: Pick<Schedule, 'action' | 'time' | 'days'>): string {
  return `${commandLabel(s.action)} ${atThe(s.time)} · ${daysText(s.days)}`;
}

export type Tone = 'ok' | 'warn' | 'off' | 'primary' | 'outline' | 'crit';

/** 'Activa', 'Desactivada', or 'Suspendida hasta …' (while its suspension lasts). */
export function scheduleState(s: Pick<Schedule, 'enabled' | 'suspendedUntil' | 'timezone'>, nowMs = Date.now()): { label: string; tone: Tone } {
  if (!s.enabled) return { label: 'Desactivada', tone: 'off' };
  if (s.suspendedUntil && Date.parse(s.suspendedUntil) > nowMs) return { label: `Suspendida hasta ${formatZonedWhen(s.suspendedUntil, s.timezone, nowMs)}`, tone: 'warn' };
  return { label: 'Activa', tone: 'ok' };
}

export const TRIGGER_LABELS: Readonly<Record<ScheduleTrigger, string>> = { time: 'Hora programada', duration: 'Cierre tras duración' };

export const RUN_TONES: Readonly<Record<ScheduleRunStatus, Tone>> = { pending: 'primary', issued: 'ok', skipped: 'warn', missed: 'warn', cancelled: 'outline' };

export function runStatusLabel(status: ScheduleRunStatus): string {
  return SCHEDULE_RUN_STATUS_LABELS[status] ?? status;
}

/** A close-after still to come: 'Cierre previsto a las 06:30' (with its day when not today). */
export function plannedCloseText(run: Pick<ScheduleRun, 'plannedAt'>, timeZone: string | undefined, nowMs = Date.now()): string {
  return `Cierre previsto ${atThe(formatZonedClock(run.plannedAt, timeZone, nowMs))}`;
}

/** The close-after planned now, if a run of the list is one: the gate follows the schedule until then. */
export function pendingClose(runs: readonly ScheduleRun[]): ScheduleRun | null {
  return runs.find((r) => r.status === 'pending' && r.trigger === 'duration') ?? null;
}

/**
 * Whether the next run would go, judged now: `off` for a disabled schedule (it does not run);
 * `unknown` until the preview came; `skip` with the reasons — the gate offline or disabled (the
 * server's words for it; the preview then says not allowed without naming an interlock), or the
 * preview's failed interlocks (a schedule gives no comment, password or approval: any failed mode
 * skips it).
 */
export type Verdict = { kind: 'off' } | { kind: 'unknown' } | { kind: 'run' } | { kind: 'skip'; reasons: string[] };

export function scheduleVerdict(schedule: Pick<Schedule, 'enabled'>, preview: SchedulePreview | undefined, device: Pick<Device, 'status' | 'enabled'> | undefined): Verdict {
  if (!schedule.enabled) return { kind: 'off' };
  const offline = device !== undefined && (device.status !== 'online' || !device.enabled);
  const first = preview?.items[0];
  const interlocks = first && !first.permissive.allowed ? first.permissive.reasons.map((r) => r.message) : [];
  if (offline) return { kind: 'skip', reasons: [ERROR_MESSAGES.DEVICE_OFFLINE, ...interlocks] };
  if (!preview) return { kind: 'unknown' };
  if (!first) return { kind: 'off' };
  if (!first.permissive.allowed) return { kind: 'skip', reasons: interlocks.length ? interlocks : [ERROR_MESSAGES.DEVICE_OFFLINE] };
  return { kind: 'run' };
}
