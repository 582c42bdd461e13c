import type { Kysely } from 'kysely';

/**
 * Versioned geometry and calibration of level sensors (docs/water.md): every change is a new
 * row, never an update, so that a reading is converted and its volume computed by the version
 * valid at its time, and history is recomputed the same way after a change. `body` holds the
 * fields as JSON (they travel together and are validated by the domain rule before storing).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('device_geometries')
    .addColumn('device_id', 'text', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('valid_from_ms', 'bigint', (c) => c.notNull())
    .addColumn('by_json', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('device_geometries_pk', ['device_id', 'version'])
    .execute();
}
