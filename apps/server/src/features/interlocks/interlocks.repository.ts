import type { Kysely, Selectable } from 'kysely';
import type { Interlock, InterlockCondition, InterlockMode } from '@agua/shared';
import { iso } from '../../lib/time';
import type { Database, InterlocksTable } from '../../storage/schema';

type Person = { id: string; username: string; name: string };

export interface InterlockRecord {
  id: string;
  deviceId: string;
  command: string;
  name: string;
  conditions: InterlockCondition[];
  mode: InterlockMode;
  enabled: boolean;
  version: number;
  bypass: { untilMs: number; by: Person; comment: string } | null;
  createdAtMs: number;
  updatedAtMs: number;
}

function toRecord(r: Selectable<InterlocksTable>): InterlockRecord {
  return {
    id: r.id,
    deviceId: r.device_id,
    command: r.command,
    name: r.name,
    conditions: JSON.parse(r.conditions_json) as InterlockCondition[],
    mode: r.mode as InterlockMode,
    enabled: Number(r.enabled) === 1,
    version: Number(r.version),
    bypass:
      r.bypass_until_ms === null ? null : { untilMs: Number(r.bypass_until_ms), by: JSON.parse(r.bypass_by_json ?? 'null') as Person, comment: r.bypass_comment ?? '' },
    createdAtMs: Number(r.created_at_ms),
    updatedAtMs: Number(r.updated_at_ms),
  };
}

/** The API's Interlock. */
export function toInterlock(r: InterlockRecord): Interlock {
  return {
    id: r.id,
    deviceId: r.deviceId,
    command: r.command,
    name: r.name,
    conditions: r.conditions,
    mode: r.mode,
    enabled: r.enabled,
    version: r.version,
    bypass: r.bypass ? { until: iso(r.bypass.untilMs), by: r.bypass.by, comment: r.bypass.comment } : null,
    updatedAt: iso(r.updatedAtMs),
  };
}

function toRow(r: InterlockRecord): InterlocksTable {
  return {
    id: r.id,
    device_id: r.deviceId,
    command: r.command,
    name: r.name,
    conditions_json: JSON.stringify(r.conditions),
    mode: r.mode,
    enabled: r.enabled ? 1 : 0,
    version: r.version,
    bypass_until_ms: r.bypass?.untilMs ?? null,
    bypass_by_json: r.bypass ? JSON.stringify(r.bypass.by) : null,
    bypass_comment: r.bypass?.comment ?? null,
    created_at_ms: r.createdAtMs,
    updated_at_ms: r.updatedAtMs,
  };
}

/** Interlocks, read from the database at every check: any instance's change counts at once. */
export class InterlocksRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async list(deviceId?: string): Promise<InterlockRecord[]> {
    let q = this.db.selectFrom('interlocks').selectAll();
    if (deviceId !== undefined) q = q.where('device_id', '=', deviceId);
    return (await q.orderBy('device_id').orderBy('command').orderBy('created_at_ms').orderBy('id').execute()).map(toRecord);
  }

  async of(deviceId: string, command: string): Promise<InterlockRecord[]> {
    const rows = await this.db.selectFrom('interlocks').selectAll().where('device_id', '=', deviceId).where('command', '=', command).orderBy('created_at_ms').orderBy('id').execute();
    return rows.map(toRecord);
  }

  async count(deviceId: string, command: string): Promise<number> {
    const row = await this.db.selectFrom('interlocks').select((eb) => eb.fn.countAll<number>().as('n')).where('device_id', '=', deviceId).where('command', '=', command).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async find(id: string): Promise<InterlockRecord | null> {
    const row = await this.db.selectFrom('interlocks').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async insert(r: InterlockRecord): Promise<void> {
    await this.db.insertInto('interlocks').values(toRow(r)).execute();
  }

  /** Stores a change made on `expectedVersion`; false when another change came first. */
  async replace(r: InterlockRecord, expectedVersion: number): Promise<boolean> {
    const { id: _id, created_at_ms: _created, ...row } = toRow(r);
    const result = await this.db.updateTable('interlocks').set(row).where('id', '=', r.id).where('version', '=', expectedVersion).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('interlocks').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  async deleteByDevice(deviceId: string): Promise<void> {
    await this.db.deleteFrom('interlocks').where('device_id', '=', deviceId).execute();
  }

  /** Bypasses that ran out by `nowMs`. */
  async expiredBypasses(nowMs: number): Promise<InterlockRecord[]> {
    const rows = await this.db.selectFrom('interlocks').selectAll().where('bypass_until_ms', 'is not', null).where('bypass_until_ms', '<=', nowMs).execute();
    return rows.map(toRecord);
  }

  /** Interlocks bypassed now (the live socket's hello). */
  async bypassedNow(nowMs: number): Promise<InterlockRecord[]> {
    const rows = await this.db.selectFrom('interlocks').selectAll().where('bypass_until_ms', '>', nowMs).orderBy('bypass_until_ms').execute();
    return rows.map(toRecord);
  }
}
