import type { Kysely } from 'kysely';
import type { BucketState } from '@agua/shared';
import type { Database } from '../../storage/schema';
import type { HourFigures } from './hour-figures';

/** A stored hour with what tells whether it still holds. */
export interface StoredHour {
  hourMs: number;
  geometryVersion: number;
  deadbandM3: number | null;
  sinceMs: number | null;
  dayFromMs: number | null;
  /** The states as stored (JSON), parsed only where they answer; only the one read is there ('' / null otherwise). */
  hourState: string;
  dayState: string | null;
}

/** An hour's figures to store, with what they were computed by. */
export interface HourRow extends HourFigures {
  deviceId: string;
  geometryVersion: number;
  deadbandM3: number | null;
  computedAtMs: number;
}

/** A device's hours [fromMs, toMs). */
export interface HourRange {
  deviceId: string;
  fromMs: number;
  toMs: number;
}

/** Rows per INSERT: 9 values each stay far below either engine's limit of bound parameters. */
const UPSERT_CHUNK = 500;

const numOrNull = (v: number | string | null): number | null => (v === null ? null : Number(v));

export const parseState = (json: string): BucketState => JSON.parse(json) as BucketState;

/** Stored per-hour water figures (docs/water.md "Analytics: how they are answered"); they go with their device (the foreign key cascades). */
export class WaterHoursRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * A device's stored hours in [fromMs, toMs), oldest first, with the one state asked for (the
   * other left empty: a year's rows are read at every answer), or none (the job's look).
   */
  async between(deviceId: string, fromMs: number, toMs: number, state: 'hour' | 'day' | null): Promise<StoredHour[]> {
    const rows = await this.db
      .selectFrom('water_hours')
      .select(['hour_ms', 'geometry_version', 'deadband_m3', 'since_ms', 'day_from_ms'])
      .$if(state === 'hour', (qb) => qb.select('hour_state'))
      .$if(state === 'day', (qb) => qb.select('day_state'))
      .where('device_id', '=', deviceId)
      .where('hour_ms', '>=', fromMs)
      .where('hour_ms', '<', toMs)
      .orderBy('hour_ms')
      .execute();
    return rows.map((r) => {
      const withStates = r as typeof r & { hour_state?: string; day_state?: string | null };
      return {
        hourMs: Number(r.hour_ms),
        geometryVersion: Number(r.geometry_version),
        deadbandM3: numOrNull(r.deadband_m3),
        sinceMs: numOrNull(r.since_ms),
        dayFromMs: numOrNull(r.day_from_ms),
        hourState: withStates.hour_state ?? '',
        dayState: withStates.day_state ?? null,
      };
    });
  }

  /** Stores hours, replacing what was stored for the same device and hour. */
  async upsert(rows: readonly HourRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
      const values = rows.slice(i, i + UPSERT_CHUNK).map((r) => ({
        device_id: r.deviceId,
        hour_ms: r.hourMs,
        geometry_version: r.geometryVersion,
        deadband_m3: r.deadbandM3,
        since_ms: r.sinceMs,
        hour_state: JSON.stringify(r.hour),
        day_from_ms: r.dayFromMs,
        day_state: r.day ? JSON.stringify(r.day) : null,
        computed_at_ms: r.computedAtMs,
      }));
      await this.db
        .insertInto('water_hours')
        .values(values)
        .onConflict((oc) =>
          oc.columns(['device_id', 'hour_ms']).doUpdateSet((eb) => ({
            geometry_version: eb.ref('excluded.geometry_version'),
            deadband_m3: eb.ref('excluded.deadband_m3'),
            since_ms: eb.ref('excluded.since_ms'),
            hour_state: eb.ref('excluded.hour_state'),
            day_from_ms: eb.ref('excluded.day_from_ms'),
            day_state: eb.ref('excluded.day_state'),
            computed_at_ms: eb.ref('excluded.computed_at_ms'),
          })),
        )
        .execute();
    }
  }

  /** Deletes stored hours of several devices, in one transaction. */
  async deleteRanges(ranges: readonly HourRange[]): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      for (const r of ranges) await tx.deleteFrom('water_hours').where('device_id', '=', r.deviceId).where('hour_ms', '>=', r.fromMs).where('hour_ms', '<', r.toMs).execute();
    });
  }

  /** Deletes a device's stored hours in [fromMs, toMs). */
  async deleteBetween(deviceId: string, fromMs: number, toMs: number): Promise<void> {
    await this.db.deleteFrom('water_hours').where('device_id', '=', deviceId).where('hour_ms', '>=', fromMs).where('hour_ms', '<', toMs).execute();
  }
}
