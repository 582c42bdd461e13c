import type { Kysely, Selectable } from 'kysely';
import type { ScheduleAction, ScheduleRun, ScheduleRunStatus, ScheduleTrigger } from '@agua/shared';
import { iso } from '../../lib/time';
import type { Database, ScheduleRunsTable, SchedulesTable } from '../../storage/schema';

type Person = { id: string; username: string; name: string };

export interface ScheduleRecord {
  id: string;
  deviceId: string;
  name: string;
  action: ScheduleAction;
  time: string;
  days: number[];
  durationMin: number | null;
  enabled: boolean;
  suspendedUntilMs: number | null;
  alarmPriority: 1 | 2 | 3 | 4;
  by: Person | null;
  /** Runs are due from here on: nothing before it is run or counted missed (created, enabled, retimed). */
  activeSinceMs: number;
  createdAtMs: number;
  updatedAtMs: number;
}

export interface RunRecord {
  id: string;
  scheduleId: string;
  scheduleName: string;
  deviceId: string;
  action: ScheduleAction;
  trigger: ScheduleTrigger;
  plannedAtMs: number;
  ranAtMs: number | null;
  status: ScheduleRunStatus;
  commandId: string | null;
  reason: { code: string; message: string } | null;
}

const num = (v: number | null) => (v === null ? null : Number(v));

function toSchedule(r: Selectable<SchedulesTable>): ScheduleRecord {
  return {
    id: r.id,
    deviceId: r.device_id,
    name: r.name,
    action: r.action as ScheduleAction,
    time: r.time,
    days: JSON.parse(r.days_json) as number[],
    durationMin: num(r.duration_min),
    enabled: Number(r.enabled) === 1,
    suspendedUntilMs: num(r.suspended_until_ms),
    alarmPriority: Number(r.alarm_priority) as 1 | 2 | 3 | 4,
    by: r.by_json ? (JSON.parse(r.by_json) as Person) : null,
    activeSinceMs: Number(r.active_since_ms),
    createdAtMs: Number(r.created_at_ms),
    updatedAtMs: Number(r.updated_at_ms),
  };
}

function scheduleRow(s: ScheduleRecord): SchedulesTable {
  return {
    id: s.id,
    device_id: s.deviceId,
    name: s.name,
    action: s.action,
    time: s.time,
    days_json: JSON.stringify(s.days),
    duration_min: s.durationMin,
    enabled: s.enabled ? 1 : 0,
    suspended_until_ms: s.suspendedUntilMs,
    alarm_priority: s.alarmPriority,
    by_json: s.by ? JSON.stringify(s.by) : null,
    active_since_ms: s.activeSinceMs,
    created_at_ms: s.createdAtMs,
    updated_at_ms: s.updatedAtMs,
  };
}

function toRun(r: Selectable<ScheduleRunsTable>): RunRecord {
  return {
    id: r.id,
    scheduleId: r.schedule_id,
    scheduleName: r.schedule_name,
    deviceId: r.device_id,
    action: r.action as ScheduleAction,
    trigger: r.trigger as ScheduleTrigger,
    plannedAtMs: Number(r.planned_at_ms),
    ranAtMs: num(r.ran_at_ms),
    status: r.status as ScheduleRunStatus,
    commandId: r.command_id,
    reason: r.reason_json ? (JSON.parse(r.reason_json) as { code: string; message: string }) : null,
  };
}

function runRow(r: RunRecord): ScheduleRunsTable {
  return {
    id: r.id,
    schedule_id: r.scheduleId,
    schedule_name: r.scheduleName,
    device_id: r.deviceId,
    action: r.action,
    trigger: r.trigger,
    planned_at_ms: r.plannedAtMs,
    ran_at_ms: r.ranAtMs,
    status: r.status,
    command_id: r.commandId,
    reason_json: r.reason ? JSON.stringify(r.reason) : null,
  };
}

/** The API's ScheduleRun. */
export function toScheduleRun(r: RunRecord): ScheduleRun {
  return {
    id: r.id,
    scheduleId: r.scheduleId,
    deviceId: r.deviceId,
    action: r.action,
    trigger: r.trigger,
    plannedAt: iso(r.plannedAtMs)!,
    ranAt: iso(r.ranAtMs),
    status: r.status,
    commandId: r.commandId,
    reason: r.reason,
  };
}

/** Schedules and their runs. A run is claimed once: (schedule, trigger, planned time) is unique. */
export class SchedulesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async list(deviceId?: string): Promise<ScheduleRecord[]> {
    let q = this.db.selectFrom('schedules').selectAll();
    if (deviceId !== undefined) q = q.where('device_id', '=', deviceId);
    return (await q.orderBy('device_id').orderBy('time').orderBy('id').execute()).map(toSchedule);
  }

  async find(id: string): Promise<ScheduleRecord | null> {
    const row = await this.db.selectFrom('schedules').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toSchedule(row) : null;
  }

  async count(deviceId: string): Promise<number> {
    const row = await this.db.selectFrom('schedules').select((eb) => eb.fn.countAll<number>().as('n')).where('device_id', '=', deviceId).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async insert(s: ScheduleRecord): Promise<void> {
    await this.db.insertInto('schedules').values(scheduleRow(s)).execute();
  }

  async update(s: ScheduleRecord): Promise<void> {
    const { id: _id, created_at_ms: _c, ...row } = scheduleRow(s);
    await this.db.updateTable('schedules').set(row).where('id', '=', s.id).execute();
  }

  /** Deletes a schedule and its runs (their commands and the audit trail keep what happened). */
  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('schedules').where('id', '=', id).executeTakeFirst();
    await this.db.deleteFrom('schedule_runs').where('schedule_id', '=', id).execute();
    return Number(result.numDeletedRows) === 1;
  }

  async deleteByDevice(deviceId: string): Promise<void> {
    await this.db.deleteFrom('schedules').where('device_id', '=', deviceId).execute();
    await this.db.deleteFrom('schedule_runs').where('device_id', '=', deviceId).execute();
  }

  /** Claims a run by storing it: false when it is already there (another instance, an earlier start). */
  async claim(run: RunRecord, db: Kysely<Database> = this.db): Promise<boolean> {
    const result = await db.insertInto('schedule_runs').values(runRow(run)).onConflict((oc) => oc.columns(['schedule_id', 'trigger', 'planned_at_ms']).doNothing()).executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /** Moves a planned close-after out of `pending`, if it still is; false when another got there first. */
  async settlePending(run: RunRecord, db: Kysely<Database> = this.db): Promise<boolean> {
    const result = await db
      .updateTable('schedule_runs')
      .set({ status: run.status, ran_at_ms: run.ranAtMs, command_id: run.commandId, reason_json: run.reason ? JSON.stringify(run.reason) : null })
      .where('id', '=', run.id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The planned times of a schedule's runs of a trigger from `sinceMs` on. */
  async plannedSince(scheduleId: string, trigger: ScheduleTrigger, sinceMs: number): Promise<number[]> {
    const rows = await this.db.selectFrom('schedule_runs').select('planned_at_ms').where('schedule_id', '=', scheduleId).where('trigger', '=', trigger).where('planned_at_ms', '>=', sinceMs).execute();
    return rows.map((r) => Number(r.planned_at_ms));
  }

  /** Close-afters planned: due ones by `dueBy`, or a device's (its schedule holds the gate). */
  async pending(q: { dueBy?: number; deviceId?: string }): Promise<RunRecord[]> {
    let query = this.db.selectFrom('schedule_runs').selectAll().where('status', '=', 'pending');
    if (q.dueBy !== undefined) query = query.where('planned_at_ms', '<=', q.dueBy);
    if (q.deviceId !== undefined) query = query.where('device_id', '=', q.deviceId);
    return (await query.orderBy('planned_at_ms').execute()).map(toRun);
  }

  /** A page of a schedule's runs, newest planned first. */
  async runs(scheduleId: string, limit: number, after?: { ms: number; id: string }): Promise<RunRecord[]> {
    let q = this.db.selectFrom('schedule_runs').selectAll().where('schedule_id', '=', scheduleId);
    if (after) q = q.where((eb) => eb.or([eb('planned_at_ms', '<', after.ms), eb.and([eb('planned_at_ms', '=', after.ms), eb('id', '<', after.id)])]));
    return (await q.orderBy('planned_at_ms', 'desc').orderBy('id', 'desc').limit(limit).execute()).map(toRun);
  }

  /** Runs the work in one transaction (a run claimed together with the command it issues). */
  transaction<T>(work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }
}
