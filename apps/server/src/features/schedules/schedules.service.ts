import {
  ALARM_PRIORITIES,
  defaultScheduleName,
  SCHEDULE_ACTIONS,
  SCHEDULE_LIMITS,
  type InterlockVerdict,
  type Schedule,
  type ScheduleAction,
  type ScheduleCreate,
  type SchedulePatch,
  type SchedulePreview,
} from '@agua/shared';
import { notFound, unprocessable } from '../../lib/errors';
import type { EventBus } from '../../lib/event-bus';
import { newId } from '../../lib/ids';
import { iso } from '../../lib/time';
import type { AuditAction } from '../audit/audit.repository';
import type { AuditService } from '../audit/audit.service';
import type { DeviceType } from '@agua/shared';
import type { UserRecord } from '../users/users.repository';
import { nextOccurrences } from './schedule-times';
import { toScheduleRun, type RunRecord, type ScheduleRecord, type SchedulesRepository } from './schedules.repository';

export interface Actor {
  user: UserRecord;
  ip: string;
}

export interface SchedulesServiceDeps {
  repo: SchedulesRepository;
  audit: AuditService;
  bus: EventBus;
  /** A device's type; undefined when unknown or retired. */
  typeOf(deviceId: string): DeviceType | undefined;
  /** Whether a device is known, retired ones included (the list's filter). */
  knows(deviceId: string): boolean;
  /** The interlocks' verdict on a command now (the preview shows it). */
  verdict(deviceId: string, command: string): Promise<InterlockVerdict>;
  /** Whether the gate is online and enabled now: a run to one that is not is skipped. */
  reachable(deviceId: string): boolean;
  timezone: string;
  now?: () => number;
}

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
const person = (u: UserRecord) => ({ id: u.id, username: u.username, name: u.name });
const invalid = (field: string, reason: string) => unprocessable('SCHEDULE_INVALID', { field, reason });

/**
 * Gate schedules (docs/control.md "Schedules"): their definitions, the preview of their next
 * runs, their runs' history, and the gates they hold between an `abrir` and its close-after.
 * The runs themselves are made by the ScheduleRunner.
 */
export class SchedulesService {
  private readonly now: () => number;

  constructor(private readonly d: SchedulesServiceDeps) {
    this.now = d.now ?? Date.now;
  }

  /** The API's Schedule, with the next time it runs (none while disabled). */
  toSchedule(s: ScheduleRecord): Schedule {
    const after = Math.max(this.now(), s.suspendedUntilMs ?? 0);
    const next = s.enabled ? (nextOccurrences(s, after, 1)[0] ?? null) : null;
    return {
      id: s.id,
      deviceId: s.deviceId,
      name: s.name,
      action: s.action,
      time: s.time,
      days: s.days,
      durationMin: s.durationMin,
      enabled: s.enabled,
      suspendedUntil: iso(s.suspendedUntilMs),
      alarmPriority: s.alarmPriority,
      timezone: this.d.timezone,
      nextRunAt: iso(next),
      by: s.by,
    };
  }

  async list(deviceId?: string): Promise<Schedule[]> {
    if (deviceId !== undefined && !this.d.knows(deviceId)) throw notFound('DEVICE_NOT_FOUND');
    return (await this.d.repo.list(deviceId)).map((s) => this.toSchedule(s));
  }

  async get(id: string): Promise<Schedule> {
    return this.toSchedule(await this.find(id));
  }

  async create(input: ScheduleCreate, actor: Actor): Promise<Schedule> {
    const now = this.now();
    const action = input.action as ScheduleAction;
    const record: ScheduleRecord = {
      id: newId('sch'),
      deviceId: input.deviceId,
      name: (input.name ?? '').trim() || (SCHEDULE_ACTIONS.includes(action) && HHMM.test(input.time) ? defaultScheduleName(action, input.time) : ''),
      action,
      time: input.time,
      days: input.days,
      durationMin: input.durationMin ?? null,
      enabled: input.enabled ?? true,
      suspendedUntilMs: this.suspendedUntil(input.suspendedUntil),
      alarmPriority: (input.alarmPriority ?? SCHEDULE_LIMITS.defaultAlarmPriority) as ScheduleRecord['alarmPriority'],
      by: person(actor.user),
      activeSinceMs: now,
      createdAtMs: now,
      updatedAtMs: now,
    };
    this.assertValid(record);
    if ((await this.d.repo.count(record.deviceId)) >= SCHEDULE_LIMITS.perDeviceMax) throw invalid('deviceId', `Como mucho ${SCHEDULE_LIMITS.perDeviceMax} programaciones por compuerta.`);
    await this.d.repo.insert(record);
    return this.changed(record, 'schedule.created', actor, {});
  }

  async update(id: string, patch: SchedulePatch, actor: Actor): Promise<Schedule> {
    const before = await this.find(id);
    const now = this.now();
    const next: ScheduleRecord = {
      ...before,
      name: patch.name !== undefined ? patch.name.trim() : before.name,
      action: (patch.action ?? before.action) as ScheduleAction,
      time: patch.time ?? before.time,
      days: patch.days ?? before.days,
      durationMin: patch.durationMin !== undefined ? patch.durationMin : before.durationMin,
      enabled: patch.enabled ?? before.enabled,
      suspendedUntilMs: patch.suspendedUntil !== undefined ? this.suspendedUntil(patch.suspendedUntil) : before.suspendedUntilMs,
      alarmPriority: (patch.alarmPriority ?? before.alarmPriority) as ScheduleRecord['alarmPriority'],
      by: person(actor.user),
      updatedAtMs: now,
    };
    // A `cerrar` has no close-after: changing the action drops a duration left from before.
    if (next.action === 'cerrar' && patch.durationMin === undefined) next.durationMin = null;
    this.assertValid(next);
    // Enabled again or given another time: what it would have done before now is not owed.
    const retimed = next.time !== before.time || JSON.stringify(next.days) !== JSON.stringify(before.days);
    if ((next.enabled && !before.enabled) || retimed) next.activeSinceMs = now;
    await this.d.repo.update(next);
    if (!next.enabled && before.enabled) await this.cancelHold(before.id, `Programación desactivada por ${actor.user.name}`);
    const changes = (['name', 'action', 'time', 'days', 'durationMin', 'enabled', 'suspendedUntilMs', 'alarmPriority'] as const).filter((k) => JSON.stringify(next[k]) !== JSON.stringify(before[k]));
    return this.changed(next, 'schedule.updated', actor, { changes });
  }

  async remove(id: string, actor: Actor): Promise<void> {
    const before = await this.find(id);
    await this.cancelHold(id, `Programación eliminada por ${actor.user.name}`);
    if (!(await this.d.repo.delete(id))) throw notFound('SCHEDULE_NOT_FOUND');
    this.d.bus.emit('schedule.removed', { id });
    await this.audit('schedule.deleted', actor, before, { deviceId: before.deviceId });
  }

  /** The next runs, judged against the interlocks as they stand now (a disabled schedule as if enabled). */
  async preview(id: string): Promise<SchedulePreview> {
    const s = await this.find(id);
    const after = Math.max(this.now(), s.suspendedUntilMs ?? 0);
    const v = await this.d.verdict(s.deviceId, s.action);
    // A schedule gives no comment, password or approval: any failed interlock skips its run, as
    // does a gate that is offline or disabled (then no interlock is named: the device says why).
    const permissive = { allowed: v.mode === null && this.d.reachable(s.deviceId), mode: v.mode, reasons: v.reasons };
    const items = nextOccurrences(s, after, SCHEDULE_LIMITS.previewItems).map((at) => ({
      at: iso(at)!,
      action: s.action,
      closeAt: s.action === 'abrir' && s.durationMin !== null ? iso(at + s.durationMin * 60_000) : null,
      permissive,
    }));
    return { timezone: this.d.timezone, items };
  }

  async runs(id: string, limit: number, after?: { ms: number; id: string }): Promise<RunRecord[]> {
    await this.find(id);
    return this.d.repo.runs(id, limit, after);
  }

  /** The schedule holding a gate now: an `abrir` issued with a duration whose close-after is still planned. */
  async holdOf(deviceId: string): Promise<{ scheduleId: string; name: string; closeAtMs: number } | null> {
    const [close] = await this.d.repo.pending({ deviceId });
    return close ? { scheduleId: close.scheduleId, name: close.scheduleName, closeAtMs: close.plannedAtMs } : null;
  }

  /** A person took the gate ('Tomar control manual', or detener): the planned close-after is cancelled. */
  async release(deviceId: string, user: UserRecord, ip: string, how: 'take_manual' | 'detener'): Promise<void> {
    for (const close of await this.d.repo.pending({ deviceId })) {
      if (!(await this.cancel(close, `Control manual tomado por ${user.name}`))) continue;
      await this.d.audit.record({
        action: 'schedule.manual_takeover',
        userId: user.id,
        username: user.username,
        target: `schedule:${close.scheduleId}`,
        result: 'ok',
        ip,
        details: { deviceId, how, closeAt: iso(close.plannedAtMs), name: close.scheduleName },
      });
    }
  }

  /** A gate was purged: its schedules and their runs go with it. */
  async forgetDevice(deviceId: string): Promise<void> {
    const gone = await this.d.repo.list(deviceId);
    await this.d.repo.deleteByDevice(deviceId);
    for (const s of gone) this.d.bus.emit('schedule.removed', { id: s.id });
  }

  private async cancelHold(scheduleId: string, why: string): Promise<void> {
    for (const close of await this.d.repo.pending({})) if (close.scheduleId === scheduleId) await this.cancel(close, why);
  }

  private async cancel(close: RunRecord, message: string): Promise<boolean> {
    const run: RunRecord = { ...close, status: 'cancelled', ranAtMs: this.now(), reason: { code: 'CANCELLED', message } };
    if (!(await this.d.repo.settlePending(run))) return false;
    this.d.bus.emit('schedule.run', toScheduleRun(run));
    return true;
  }

  private suspendedUntil(value: string | null | undefined): number | null {
    if (value === undefined || value === null) return null;
    const ms = Date.parse(value);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || !Number.isFinite(ms)) throw invalid('suspendedUntil', 'Una fecha y hora ISO 8601, o null.');
    return ms;
  }

  private assertValid(s: ScheduleRecord): void {
    const type = this.d.typeOf(s.deviceId);
    if (type !== 'motorized_gate') throw invalid('deviceId', type ? 'Solo las compuertas tienen programación.' : 'Dispositivo desconocido o retirado.');
    if (!SCHEDULE_ACTIONS.includes(s.action)) throw invalid('action', "La acción es 'abrir' o 'cerrar'.");
    if (!HHMM.test(s.time)) throw invalid('time', 'Una hora HH:MM (00:00 a 23:59).');
    if (s.days.length === 0 || s.days.some((d) => !Number.isInteger(d) || d < 1 || d > 7) || new Set(s.days).size !== s.days.length) {
      throw invalid('days', 'Uno o más días de la semana, de 1 (lunes) a 7 (domingo), sin repetir.');
    }
    if (s.durationMin !== null) {
      if (s.action !== 'abrir') throw invalid('durationMin', "Solo 'abrir' tiene una duración (después cierra).");
      if (s.durationMin < SCHEDULE_LIMITS.durationMinMin || s.durationMin > SCHEDULE_LIMITS.durationMinMax) throw invalid('durationMin', 'Entre 1 y 1440 minutos.');
    }
    if (s.name.length < 1 || s.name.length > SCHEDULE_LIMITS.nameMax) throw invalid('name', `El nombre debe tener entre 1 y ${SCHEDULE_LIMITS.nameMax} caracteres.`);
    if (!(ALARM_PRIORITIES as readonly number[]).includes(s.alarmPriority)) throw invalid('alarmPriority', 'Una prioridad de 1 a 4.');
  }

  private async find(id: string): Promise<ScheduleRecord> {
    const s = await this.d.repo.find(id);
    if (!s) throw notFound('SCHEDULE_NOT_FOUND');
    return s;
  }

  private async changed(s: ScheduleRecord, action: AuditAction, actor: Actor, details: Record<string, unknown>): Promise<Schedule> {
    const schedule = this.toSchedule(s);
    this.d.bus.emit('schedule.updated', schedule);
    await this.audit(action, actor, s, details);
    return schedule;
  }

  private async audit(action: AuditAction, actor: Actor, s: ScheduleRecord, details: Record<string, unknown>): Promise<void> {
    await this.d.audit.record({ action, userId: actor.user.id, username: actor.user.username, target: `schedule:${s.id}`, result: 'ok', ip: actor.ip, details: { name: s.name, ...details } });
  }
}
