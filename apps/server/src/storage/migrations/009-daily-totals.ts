import type { Kysely } from 'kysely';

/**
 * Daily totals of level sensors (docs/water.md "Daily totals"): one row per device and local
 * day, recomputed while the day's readings exist and kept after retention deletes them (only raw
 * readings are pruned). `points` is how many readings the day's series held when it was computed:
 * fewer now means some were pruned, and the row, not the readings, tells the day.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('daily_totals')
    .addColumn('device_id', 'text', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('from_ms', 'bigint', (c) => c.notNull())
    .addColumn('to_ms', 'bigint', (c) => c.notNull())
    .addColumn('min_level_m', 'real')
    .addColumn('max_level_m', 'real')
    .addColumn('mean_level_m', 'real')
    .addColumn('volume_start_m3', 'real')
    .addColumn('volume_end_m3', 'real')
    .addColumn('inflow_m3', 'real')
    .addColumn('outflow_m3', 'real')
    .addColumn('seconds_above_crest', 'real')
    .addColumn('overflow_events', 'integer', (c) => c.notNull())
    .addColumn('completeness_pct', 'real', (c) => c.notNull())
    .addColumn('points', 'integer', (c) => c.notNull())
    .addColumn('computed_at_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('daily_totals_pk', ['device_id', 'date'])
    .execute();
}
