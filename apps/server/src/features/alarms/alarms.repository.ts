import type { Kysely, Selectable } from 'kysely';
import { isAlarmOpen, type Alarm, type AlarmKind, type AlarmPriority, type AlarmState } from '@agua/shared';
import { iso } from '../../lib/time';
import type { AlarmsTable, Database } from '../../storage/schema';

export interface Person {
  id: string;
  username: string;
  name: string;
}

/** An alarm as the server keeps it (times in epoch ms). */
export interface AlarmRecord {
  id: string;
  deviceId: string;
  ruleId: string;
  kind: AlarmKind;
  priority: AlarmPriority;
  state: AlarmState;
  raisedAtMs: number;
  ackedAtMs: number | null;
  ackedBy: Person | null;
  ackComment: string | null;
  clearedAtMs: number | null;
  shelvedUntilMs: number | null;
  shelvedBy: Person | null;
  shelveComment: string | null;
  value: number | string | null;
  peakValue: number | null;
  message: string;
  endedAtMs: number | null;
}

export interface AlarmTransition {
  atMs: number;
  from: AlarmState | null;
  to: AlarmState;
  by: Person | null;
  comment: string | null;
}

/** An alarm change to store: the alarm as it is now, and the transition that made it so. */
export interface AlarmChange {
  alarm: AlarmRecord;
  transition: AlarmTransition;
  isNew: boolean;
  /** What the change tells people (the notifications feature's business), stored in the change's transaction. */
  notice?: unknown;
}

export interface AlarmQuery {
  fromMs?: number;
  toMs?: number;
  deviceId?: string;
  /** Any of these devices. */
  deviceIds?: readonly string[];
  priority?: number;
  states?: readonly AlarmState[];
  limit: number;
  /** Newest first: the page after this (raisedAtMs, id). */
  after?: { raisedAtMs: number; id: string };
}

/** A person as stored (JSON), or null. */
export const personJson = (p: Person | null) => (p ? JSON.stringify(p) : null);
const person = (s: string | null) => (s ? (JSON.parse(s) as Person) : null);
const ms = (v: number | null) => (v === null ? null : Number(v));

function toRecord(row: Selectable<AlarmsTable>): AlarmRecord {
  return {
    id: row.id,
    deviceId: row.device_id,
    ruleId: row.rule_id,
    kind: row.kind as AlarmKind,
    priority: row.priority as AlarmPriority,
    state: row.state as AlarmState,
    raisedAtMs: Number(row.raised_at_ms),
    ackedAtMs: ms(row.acked_at_ms),
    ackedBy: person(row.acked_by_json),
    ackComment: row.ack_comment,
    clearedAtMs: ms(row.cleared_at_ms),
    shelvedUntilMs: ms(row.shelved_until_ms),
    shelvedBy: person(row.shelved_by_json),
    shelveComment: row.shelve_comment,
    value: row.value_num ?? row.value_text,
    peakValue: row.peak_value,
    message: row.message,
    endedAtMs: ms(row.ended_at_ms),
  };
}

/** The stored row of an alarm (also used by the writer thread's alarm writer). */
export function toRow(a: AlarmRecord): AlarmsTable {
  return {
    id: a.id,
    device_id: a.deviceId,
    rule_id: a.ruleId,
    kind: a.kind,
    priority: a.priority,
    state: a.state,
    raised_at_ms: a.raisedAtMs,
    acked_at_ms: a.ackedAtMs,
    acked_by_json: personJson(a.ackedBy),
    ack_comment: a.ackComment,
    cleared_at_ms: a.clearedAtMs,
    shelved_until_ms: a.shelvedUntilMs,
    shelved_by_json: personJson(a.shelvedBy),
    shelve_comment: a.shelveComment,
    value_num: typeof a.value === 'number' ? a.value : null,
    value_text: typeof a.value === 'string' ? a.value : null,
    peak_value: a.peakValue,
    message: a.message,
    ended_at_ms: a.endedAtMs,
  };
}

/** The API's Alarm. */
export function toAlarm(a: AlarmRecord): Alarm {
  return {
    id: a.id,
    deviceId: a.deviceId,
    ruleId: a.ruleId,
    kind: a.kind,
    priority: a.priority,
    state: a.state,
    raisedAt: iso(a.raisedAtMs)!,
    ackedAt: iso(a.ackedAtMs),
    ackedBy: a.ackedBy,
    ackComment: a.ackComment,
    clearedAt: iso(a.clearedAtMs),
    shelvedUntil: iso(a.shelvedUntilMs),
    shelvedBy: a.shelvedBy,
    shelveComment: a.shelveComment,
    value: a.value,
    peakValue: a.peakValue,
    message: a.message,
  };
}

/** The record of an alarm another instance announced (its end time is not in the API: now, when over). */
export function fromAlarm(a: Alarm): AlarmRecord {
  const msOf = (t: string | null) => (t === null ? null : Date.parse(t));
  return {
    id: a.id,
    deviceId: a.deviceId,
    ruleId: a.ruleId,
    kind: a.kind,
    priority: a.priority as AlarmPriority,
    state: a.state,
    raisedAtMs: Date.parse(a.raisedAt),
    ackedAtMs: msOf(a.ackedAt),
    ackedBy: a.ackedBy,
    ackComment: a.ackComment,
    clearedAtMs: msOf(a.clearedAt),
    shelvedUntilMs: msOf(a.shelvedUntil),
    shelvedBy: a.shelvedBy,
    shelveComment: a.shelveComment,
    value: a.value,
    peakValue: a.peakValue,
    message: a.message,
    endedAtMs: isAlarmOpen(a.state) ? null : Date.now(),
  };
}

/** Alarms and their transitions as stored (reads and purges; changes are written by SqliteAlarmsWriter on the writer thread). */
export class AlarmsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async listOpen(): Promise<AlarmRecord[]> {
    const rows = await this.db.selectFrom('alarms').selectAll().where('state', 'in', ['unack', 'ack', 'rtn_unack', 'shelved']).execute();
    return rows.map(toRecord);
  }

  async findById(id: string): Promise<AlarmRecord | null> {
    const row = await this.db.selectFrom('alarms').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async transitionsOf(id: string): Promise<AlarmTransition[]> {
    const rows = await this.db.selectFrom('alarm_transitions').selectAll().where('alarm_id', '=', id).orderBy('id').execute();
    return rows.map((r) => ({ atMs: Number(r.at_ms), from: r.from_state as AlarmState | null, to: r.to_state as AlarmState, by: person(r.by_json), comment: r.comment }));
  }

  /** A purged device's alarms and their transitions (foreign key cascade). */
  async deleteByDevice(deviceId: string): Promise<void> {
    await this.db.deleteFrom('alarms').where('device_id', '=', deviceId).execute();
  }

  /** A page of alarms raised in a range, newest first. */
  /** Every alarm of these devices raised in [fromMs, toMs), oldest first (a report's period). */
  async raisedBetween(deviceIds: readonly string[], fromMs: number, toMs: number): Promise<AlarmRecord[]> {
    if (deviceIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('alarms')
      .selectAll()
      .where('device_id', 'in', [...deviceIds])
      .where('raised_at_ms', '>=', fromMs)
      .where('raised_at_ms', '<', toMs)
      .orderBy('raised_at_ms')
      .orderBy('id')
      .execute();
    return rows.map(toRecord);
  }

  async page(q: AlarmQuery): Promise<AlarmRecord[]> {
    let query = this.db.selectFrom('alarms').selectAll();
    if (q.fromMs !== undefined) query = query.where('raised_at_ms', '>=', q.fromMs);
    if (q.toMs !== undefined) query = query.where('raised_at_ms', '<', q.toMs);
    if (q.deviceId !== undefined) query = query.where('device_id', '=', q.deviceId);
    if (q.deviceIds !== undefined) query = query.where('device_id', 'in', [...q.deviceIds]);
    if (q.priority !== undefined) query = query.where('priority', '=', q.priority);
    if (q.states !== undefined) query = query.where('state', 'in', [...q.states]);
    if (q.after) {
      const { raisedAtMs, id } = q.after;
      query = query.where((eb) => eb.or([eb('raised_at_ms', '<', raisedAtMs), eb.and([eb('raised_at_ms', '=', raisedAtMs), eb('id', '<', id)])]));
    }
    const rows = await query.orderBy('raised_at_ms', 'desc').orderBy('id', 'desc').limit(q.limit).execute();
    return rows.map(toRecord);
  }
}
