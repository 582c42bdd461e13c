import { sql, type Kysely } from 'kysely';

/** Initial schema: users, sessions, devices, readings, commands, audit events. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('master_password_hash', 'text')
    .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_login_ms', 'bigint')
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('last_used_ms', 'bigint', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('login_failures')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_failures_ip_at').on('login_failures').columns(['ip', 'at_ms']).execute();

  await db.schema
    .createTable('devices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('water_type', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('retired_at_ms', 'bigint')
    .addColumn('key_hash', 'text')
    .addColumn('config_json', 'text', (c) => c.notNull())
    .addColumn('gate_state', 'text')
    .addColumn('last_seen_ms', 'bigint')
    .addColumn('last_command_id', 'text')
    .addColumn('reading_value_num', 'double precision')
    .addColumn('reading_value_text', 'text')
    .addColumn('reading_status', 'text')
    .addColumn('reading_ts_ms', 'bigint')
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('devices_key_hash').on('devices').column('key_hash').execute();

  await db.schema
    .createTable('readings')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('ts_ms', 'bigint', (c) => c.notNull())
    .addColumn('value_num', 'double precision')
    .addColumn('value_text', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('received_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('readings_device_ts').on('readings').columns(['device_id', 'ts_ms']).execute();
  await db.schema.createIndex('readings_ts').on('readings').column('ts_ms').execute();

  await db.schema
    .createTable('telemetry_dedupe')
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('boot', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('received_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('telemetry_dedupe_pk', ['device_id', 'boot', 'seq'])
    .execute();
  await db.schema.createIndex('telemetry_dedupe_received').on('telemetry_dedupe').column('received_ms').execute();

  await db.schema
    .createTable('commands')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('command', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('issued_by_id', 'text')
    .addColumn('issued_by_username', 'text')
    .addColumn('issued_by_name', 'text')
    .addColumn('issued_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('expires_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('delivered_at_ms', 'bigint')
    .addColumn('handed_out_at_ms', 'bigint')
    .addColumn('completed_at_ms', 'bigint')
    .addColumn('message', 'text')
    .execute();
  await db.schema.createIndex('commands_device_issued').on('commands').columns(['device_id', 'issued_at_ms']).execute();
  await db.schema.createIndex('commands_status').on('commands').column('status').execute();

  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('at_ms', 'bigint', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('username', 'text')
    .addColumn('target', 'text')
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('details_json', 'text')
    .execute();
  await db.schema.createIndex('audit_events_at').on('audit_events').column('at_ms').execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  // The audit trail is append-only (docs/api.md): the database itself refuses changes.
  await sql`CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
    BEGIN SELECT RAISE(ABORT, 'audit trail is append-only'); END`.execute(db);
  await sql`CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events
    BEGIN SELECT RAISE(ABORT, 'audit trail is append-only'); END`.execute(db);
}
