import type { Kysely } from 'kysely';

/**
 * Overflow events (docs/water.md "Overflow events"): one row per spill of a level sensor, found
 * from its readings against the crest and kept regardless of RETENTION_DAYS. `last_reading_ms` is
 * the newest reading judged into an open event (its duration so far). `overflow_cursors` says up to
 * which reading each device's readings were judged, so that a restart goes on from there, and
 * (several instances) the oldest reading stored since that is older than it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('overflow_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('device_id', 'text', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('started_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('ended_at_ms', 'bigint')
    .addColumn('last_reading_ms', 'bigint', (c) => c.notNull())
    .addColumn('peak_level_m', 'real', (c) => c.notNull())
    .addColumn('volume_m3', 'real')
    .addColumn('method', 'text')
    .addColumn('cause', 'text')
    .addColumn('notified_at_ms', 'bigint')
    .addColumn('notes', 'text')
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  // Unique: two instances judging one device at once (an ownership handover) cannot store a spill twice.
  await db.schema.createIndex('overflow_events_device_started').unique().on('overflow_events').columns(['device_id', 'started_at_ms']).execute();
  await db.schema.createIndex('overflow_events_started').on('overflow_events').columns(['started_at_ms']).execute();
  await db.schema
    .createTable('overflow_cursors')
    .addColumn('device_id', 'text', (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
    .addColumn('judged_to_ms', 'bigint', (c) => c.notNull())
    .addColumn('late_from_ms', 'bigint')
    .execute();
}
