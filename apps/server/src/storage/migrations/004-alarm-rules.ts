import type { Kysely } from 'kysely';

/**
 * Alarm rules per device (docs/alarms.md "Alarm rules"). Devices get their default rules from the
 * alarms feature (at creation, and at start for any device without them), not from here, so
 * that the defaults have one home.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('alarm_rules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('device_id', 'text', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull())
    .addColumn('setpoint_pct', 'real')
    .addColumn('rate_per_min', 'real')
    .addColumn('window_s', 'integer')
    .addColumn('deadband_pct', 'real', (c) => c.notNull())
    .addColumn('on_delay_s', 'integer', (c) => c.notNull())
    .addColumn('off_delay_s', 'integer', (c) => c.notNull())
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('alarm_rules_device_kind', ['device_id', 'kind'])
    .execute();
}
