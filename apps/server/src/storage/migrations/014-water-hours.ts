import type { Kysely } from 'kysely';

/**
 * Stored per-hour water figures of level sensors with a geometry (docs/water.md "Analytics: how
 * they are answered"): one row per device and UTC hour, derived from the readings and recomputed
 * by a leader-only job. `hour_state` is the hour bucket's gathered figures, `day_state` those of
 * the hour's local day up to the hour's end (null where the day does not start and end on whole
 * UTC hours), both as JSON. A row holds while `geometry_version` and `deadband_m3` are the
 * device's and no reading it used (none older than `since_ms`) was pruned; a late reading deletes
 * the rows it touches.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('water_hours')
    .addColumn('device_id', 'text', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('hour_ms', 'bigint', (c) => c.notNull())
    .addColumn('geometry_version', 'integer', (c) => c.notNull())
    .addColumn('deadband_m3', 'real')
    .addColumn('since_ms', 'bigint')
    .addColumn('hour_state', 'text', (c) => c.notNull())
    .addColumn('day_from_ms', 'bigint')
    .addColumn('day_state', 'text')
    .addColumn('computed_at_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('water_hours_pk', ['device_id', 'hour_ms'])
    .execute();
}
