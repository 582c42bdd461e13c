import type { Kysely, Selectable } from 'kysely';
import type { DailyTotals } from '@agua/shared';
import type { DailyTotalsTable, Database } from '../../storage/schema';

/** A day's totals as stored, with what tells whether its readings are still all there. */
export interface StoredDailyTotals {
  deviceId: string;
  totals: DailyTotals;
  fromMs: number;
  toMs: number;
  /** How many readings the day's series held when it was computed. */
  points: number;
  computedAtMs: number;
}

/** Rows per INSERT: 16 values each stay far below either engine's limit of bound parameters. */
const UPSERT_CHUNK = 200;

const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

function toStored(row: Selectable<DailyTotalsTable>): StoredDailyTotals {
  return {
    deviceId: row.device_id,
    fromMs: Number(row.from_ms),
    toMs: Number(row.to_ms),
    points: Number(row.points),
    computedAtMs: Number(row.computed_at_ms),
    totals: {
      date: row.date,
      minLevelM: num(row.min_level_m),
      maxLevelM: num(row.max_level_m),
      meanLevelM: num(row.mean_level_m),
      volumeStartM3: num(row.volume_start_m3),
      volumeEndM3: num(row.volume_end_m3),
      inflowM3: num(row.inflow_m3),
      outflowM3: num(row.outflow_m3),
      secondsAboveCrest: num(row.seconds_above_crest),
      overflowEvents: Number(row.overflow_events),
      completenessPct: Number(row.completeness_pct),
    },
  };
}

/**
 * Stored daily totals of level sensors (docs/water.md "Daily totals"). Retention never touches
 * them; they go with their device when it is purged (the foreign key cascades).
 */
export class DailyTotalsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** A device's stored days from `firstDate` to `lastDate`, both included (YYYY-MM-DD), oldest first. */
  async between(deviceId: string, firstDate: string, lastDate: string): Promise<StoredDailyTotals[]> {
    const rows = await this.db
      .selectFrom('daily_totals')
      .selectAll()
      .where('device_id', '=', deviceId)
      .where('date', '>=', firstDate)
      .where('date', '<=', lastDate)
      .orderBy('date')
      .execute();
    return rows.map(toStored);
  }

  /** The newest date stored for a device, or null. */
  async latestDate(deviceId: string): Promise<string | null> {
    const row = await this.db.selectFrom('daily_totals').select('date').where('device_id', '=', deviceId).orderBy('date', 'desc').limit(1).executeTakeFirst();
    return row?.date ?? null;
  }

  /** Stores days, replacing what was stored for the same device and date. */
  async upsert(days: readonly StoredDailyTotals[]): Promise<void> {
    for (let i = 0; i < days.length; i += UPSERT_CHUNK) await this.upsertChunk(days.slice(i, i + UPSERT_CHUNK));
  }

  private async upsertChunk(days: readonly StoredDailyTotals[]): Promise<void> {
    if (days.length === 0) return;
    const rows = days.map((d) => ({
      device_id: d.deviceId,
      date: d.totals.date,
      from_ms: d.fromMs,
      to_ms: d.toMs,
      min_level_m: d.totals.minLevelM,
      max_level_m: d.totals.maxLevelM,
      mean_level_m: d.totals.meanLevelM,
      volume_start_m3: d.totals.volumeStartM3,
      volume_end_m3: d.totals.volumeEndM3,
      inflow_m3: d.totals.inflowM3,
      outflow_m3: d.totals.outflowM3,
      seconds_above_crest: d.totals.secondsAboveCrest,
      overflow_events: d.totals.overflowEvents,
      completeness_pct: d.totals.completenessPct,
      points: d.points,
      computed_at_ms: d.computedAtMs,
    }));
    await this.db
      .insertInto('daily_totals')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['device_id', 'date']).doUpdateSet((eb) => ({
          from_ms: eb.ref('excluded.from_ms'),
          to_ms: eb.ref('excluded.to_ms'),
          min_level_m: eb.ref('excluded.min_level_m'),
          max_level_m: eb.ref('excluded.max_level_m'),
          mean_level_m: eb.ref('excluded.mean_level_m'),
          volume_start_m3: eb.ref('excluded.volume_start_m3'),
          volume_end_m3: eb.ref('excluded.volume_end_m3'),
          inflow_m3: eb.ref('excluded.inflow_m3'),
          outflow_m3: eb.ref('excluded.outflow_m3'),
          seconds_above_crest: eb.ref('excluded.seconds_above_crest'),
          overflow_events: eb.ref('excluded.overflow_events'),
          completeness_pct: eb.ref('excluded.completeness_pct'),
          points: eb.ref('excluded.points'),
          computed_at_ms: eb.ref('excluded.computed_at_ms'),
        })),
      )
      .execute();
  }
}
