import type { Kysely, Selectable } from 'kysely';
import type { AlarmKind, AlarmPriority, AlarmRule } from '@agua/shared';
import type { AlarmRulesTable, Database } from '../../storage/schema';

export interface StoredAlarmRule extends AlarmRule {
  deviceId: string;
}

function toRule(row: Selectable<AlarmRulesTable>): StoredAlarmRule {
  return {
    id: row.id,
    deviceId: row.device_id,
    kind: row.kind as AlarmKind,
    enabled: row.enabled === 1,
    priority: row.priority as AlarmPriority,
    ...(row.setpoint_pct !== null ? { setpointPct: row.setpoint_pct } : {}),
    ...(row.rate_per_min !== null ? { ratePerMin: row.rate_per_min } : {}),
    ...(row.window_s !== null ? { windowS: row.window_s } : {}),
    deadbandPct: row.deadband_pct,
    onDelayS: row.on_delay_s,
    offDelayS: row.off_delay_s,
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
    rate_per_min: r.ratePerMin ?? null,
    window_s: r.windowS ?? null,
    deadband_pct: r.deadbandPct,
    on_delay_s: r.onDelayS,
    off_delay_s: r.offDelayS,
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
