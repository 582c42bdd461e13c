import type { Kysely } from 'kysely';

/**
 * External broker mode (docs/external-broker.md): a device key the broker has not been given yet. The broker
 * needs the key itself (it keeps its own hash), but this server keeps only a keyed hash, so a new
 * or rotated key waits here, sealed, until the broker confirms it; then the row goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('broker_credentials')
    .addColumn('device_id', 'text', (c) => c.primaryKey())
    .addColumn('key_sealed', 'text', (c) => c.notNull())
    .addColumn('issued_at_ms', 'bigint', (c) => c.notNull())
    .execute();
}

