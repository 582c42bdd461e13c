import type { Kysely, Selectable } from 'kysely';
import type { DeviceType, GateState, StoredReadingFields, WaterType } from '@agua/shared';
import type { Database, DevicesTable } from '../../storage/schema';

/** Per-device settings kept as JSON; absent fields take the defaults. */
export interface DeviceSettings {
  maxLevel?: number;
  warningPct?: number;
  criticalPct?: number;
  /** Own offline timeout for a device that sleeps between readings; else DEVICE_OFFLINE_AFTER_S. */
  offlineAfterS?: number;
  travelTimeoutS?: number;
  /** Level sensors: how often it reads (s); the completeness of its days counts on it. */
  readingIntervalS?: number;
}

export type StoredReading = StoredReadingFields;

export interface DeviceRecord {
  id: string;
  name: string;
  location: string;
  type: DeviceType;
  waterType: WaterType | null;
  enabled: boolean;
  retiredAtMs: number | null;
  keyHash: string | null;
  settings: DeviceSettings;
  gateState: GateState | null;
  lastSeenMs: number | null;
  lastCommandId: string | null;
  reading: StoredReading | null;
  /** The site it belongs to (docs/sites.md); null: none. */
  siteId: string | null;
  createdAtMs: number;
}

function toRecord(row: Selectable<DevicesTable>): DeviceRecord {
  return {
    id: row.id,
    name: row.name,
    location: row.location,
    type: row.type as DeviceType,
    waterType: row.water_type as WaterType | null,
    enabled: row.enabled === 1,
    retiredAtMs: row.retired_at_ms === null ? null : Number(row.retired_at_ms),
    keyHash: row.key_hash,
    settings: JSON.parse(row.config_json) as DeviceSettings,
    gateState: row.gate_state as GateState | null,
    lastSeenMs: row.last_seen_ms === null ? null : Number(row.last_seen_ms),
    lastCommandId: row.last_command_id,
    reading:
      row.reading_ts_ms === null
        ? null
        : {
            valueNum: row.reading_value_num,
            rawNum: row.reading_raw_num,
            valueText: row.reading_value_text,
            status: (row.reading_status ?? 'normal') as StoredReadingFields['status'],
            tsMs: Number(row.reading_ts_ms),
          },
    siteId: row.site_id,
    createdAtMs: Number(row.created_at_ms),
  };
}

/** Devices, stored. The live state (online, current reading) is kept by DevicesService. */
export class DevicesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async listAll(): Promise<DeviceRecord[]> {
    const rows = await this.db.selectFrom('devices').selectAll().orderBy('created_at_ms').orderBy('id').execute();
    return rows.map(toRecord);
  }

  async findById(id: string): Promise<DeviceRecord | undefined> {
    const row = await this.db.selectFrom('devices').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async count(): Promise<number> {
    const row = await this.db.selectFrom('devices').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(d: DeviceRecord): Promise<void> {
    await this.db
      .insertInto('devices')
      .values({
        id: d.id,
        name: d.name,
        location: d.location,
        type: d.type,
        water_type: d.waterType,
        enabled: d.enabled ? 1 : 0,
        retired_at_ms: d.retiredAtMs,
        key_hash: d.keyHash,
        config_json: JSON.stringify(d.settings),
        gate_state: d.gateState,
        last_seen_ms: d.lastSeenMs,
        last_command_id: d.lastCommandId,
        reading_value_num: d.reading?.valueNum ?? null,
        reading_raw_num: d.reading?.rawNum ?? null,
        reading_value_text: d.reading?.valueText ?? null,
        reading_status: d.reading?.status ?? null,
        reading_ts_ms: d.reading?.tsMs ?? null,
        site_id: d.siteId,
        created_at_ms: d.createdAtMs,
        updated_at_ms: Date.now(),
      })
      .execute();
  }

  /** Saves the administrative fields of a device (not its live state). */
  async updateAdmin(d: DeviceRecord): Promise<void> {
    await this.db
      .updateTable('devices')
      .set({
        name: d.name,
        location: d.location,
        water_type: d.waterType,
        enabled: d.enabled ? 1 : 0,
        retired_at_ms: d.retiredAtMs,
        key_hash: d.keyHash,
        config_json: JSON.stringify(d.settings),
        site_id: d.siteId,
        updated_at_ms: Date.now(),
      })
      .where('id', '=', d.id)
      .execute();
  }

  async setLastCommand(id: string, commandId: string): Promise<void> {
    await this.db.updateTable('devices').set({ last_command_id: commandId }).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('devices').where('id', '=', id).execute();
  }
}
