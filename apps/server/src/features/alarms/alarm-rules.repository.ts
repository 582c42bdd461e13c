import type { Kysely, Selectable } from 'kysely';
import { isLevelSetpointKind, type AlarmKind, type AlarmPriority, type AlarmRule } from '@agua/shared';
import type { AlarmRulesTable, Database } from '../../storage/schema';

export interface StoredAlarmRule extends AlarmRule {
  deviceId: string;
  /** An admin edited it (docs/water.md "Alarms": a first crest then leaves the water kinds alone). */
  edited: boolean;
}

function toRule(row: Selectable<AlarmRulesTable>): StoredAlarmRule {
  const kind = row.kind as AlarmKind;
  return {
    id: row.id,
    deviceId: row.device_id,
    kind,
    enabled: row.enabled === 1,
    priority: row.priority as AlarmPriority,
    // A level rule has its setpoint in % or in metres, the other null.
    ...(isLevelSetpointKind(kind) ? { setpointPct: row.setpoint_pct, setpointM: row.setpoint_m } : {}),
    ...(row.setpoint_min !== null ? { setpointMin: row.setpoint_min } : {}),
    ...(row.rate_per_min !== null ? { ratePerMin: row.rate_per_min } : {}),
    ...(row.window_s !== null ? { windowS: row.window_s } : {}),
    deadbandPct: row.deadband_pct,
    onDelayS: row.on_delay_s,
    offDelayS: row.off_delay_s,
    edited: row.edited === 1,
  };
}

function toRow(r: StoredAlarmRule): AlarmRulesTable {
  return {
    id: r.id,
    device_id: r.deviceId,
    kind: r.kind,
    enabled: r.enabled ? 1 : 0,
    priority: r.priority,
    setpoint_pct: r.setpointPct ?? null,
    setpoint_m: r.setpointM ?? null,
    setpoint_min: r.setpointMin ?? null,
    rate_per_min: r.ratePerMin ?? null,
    window_s: r.windowS ?? null,
    deadband_pct: r.deadbandPct,
    on_delay_s: r.onDelayS,
    off_delay_s: r.offDelayS,
    edited: r.edited ? 1 : 0,
    updated_at_ms: Date.now(),
  };
}

/** Alarm rules, stored (deleted with their device by the foreign key). */
export class AlarmRulesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async listAll(): Promise<StoredAlarmRule[]> {
    return (await this.db.selectFrom('alarm_rules').selectAll().execute()).map(toRule);
  }

  async listByDevice(deviceId: string): Promise<StoredAlarmRule[]> {
    return (await this.db.selectFrom('alarm_rules').selectAll().where('device_id', '=', deviceId).execute()).map(toRule);
  }

  /** Adds rules; a (device, kind) that already has one keeps it. */
  async insertMissing(rules: StoredAlarmRule[]): Promise<void> {
    if (rules.length === 0) return;
    await this.db
      .insertInto('alarm_rules')
      .values(rules.map(toRow))
      .onConflict((oc) => oc.columns(['device_id', 'kind']).doNothing())
      .execute();
  }

  async save(rule: StoredAlarmRule): Promise<void> {
    const { id: _id, device_id: _device, kind: _kind, ...fields } = toRow(rule);
    await this.db.updateTable('alarm_rules').set(fields).where('id', '=', rule.id).execute();
  }

  /** Saves several rules of one device together (a threshold change moves two setpoints). */
  async saveAll(rules: StoredAlarmRule[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const rule of rules) {
        const { id: _id, device_id: _device, kind: _kind, ...fields } = toRow(rule);
        await trx.updateTable('alarm_rules').set(fields).where('id', '=', rule.id).execute();
      }
    });
  }
}
