import { sql, type Kysely } from 'kysely';

/**
 * Alarms (one row per occurrence of a rule, docs/alarms.md "Alarm states") and every transition of
 * each, for history, the ISA-18.2 figures and the audit of who did what.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('alarms')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('rule_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('raised_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('acked_at_ms', 'bigint')
    .addColumn('acked_by_json', 'text')
    .addColumn('ack_comment', 'text')
    .addColumn('cleared_at_ms', 'bigint')
    .addColumn('shelved_until_ms', 'bigint')
    .addColumn('shelved_by_json', 'text')
    .addColumn('shelve_comment', 'text')
    .addColumn('value_num', 'real')
    .addColumn('value_text', 'text')
    .addColumn('peak_value', 'real')
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('ended_at_ms', 'bigint')
    .execute();
  await db.schema.createIndex('alarms_raised').on('alarms').columns(['raised_at_ms', 'id']).execute();
  await db.schema.createIndex('alarms_device_raised').on('alarms').columns(['device_id', 'raised_at_ms']).execute();
  // At most one open alarm per rule, enforced by the storage too.
  await sql`CREATE UNIQUE INDEX alarms_open_per_rule ON alarms (rule_id) WHERE state IN ('unack', 'ack', 'rtn_unack', 'shelved')`.execute(db);

  await db.schema
    .createTable('alarm_transitions')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('alarm_id', 'text', (c) => c.notNull().references('alarms.id').onDelete('cascade'))
    .addColumn('at_ms', 'bigint', (c) => c.notNull())
    .addColumn('from_state', 'text')
    .addColumn('to_state', 'text', (c) => c.notNull())
    .addColumn('by_json', 'text')
    .addColumn('comment', 'text')
    .execute();
  await db.schema.createIndex('alarm_transitions_alarm').on('alarm_transitions').column('alarm_id').execute();
}
