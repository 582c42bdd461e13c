import type { Kysely } from 'kysely';

/**
 * Safe control (docs/control.md): the interlocks in front of a device's commands; what a command
 * now carries — the issuer's comment, its approval, the failed interlocks it passed, the schedule
 * that issued it; gate schedules and their runs, one per (schedule, trigger, planned time).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('interlocks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('command', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('conditions_json', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('bypass_until_ms', 'bigint')
    .addColumn('bypass_by_json', 'text')
    .addColumn('bypass_comment', 'text')
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('interlocks_target').on('interlocks').columns(['device_id', 'command']).execute();
  await db.schema.createIndex('interlocks_bypass').on('interlocks').columns(['bypass_until_ms']).execute();
  for (const [name, type] of [
    ['comment', 'text'],
    ['approved_by_json', 'text'],
    ['approved_at_ms', 'bigint'],
    ['approval_expires_at_ms', 'bigint'],
    ['overrides_json', 'text'],
    ['schedule_id', 'text'],
  ] as const) {
    await db.schema.alterTable('commands').addColumn(name, type).execute();
  }
  await db.schema.createIndex('commands_awaiting').on('commands').columns(['status', 'approval_expires_at_ms']).execute();
  await db.schema
    .createTable('schedules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('time', 'text', (c) => c.notNull())
    .addColumn('days_json', 'text', (c) => c.notNull())
    .addColumn('duration_min', 'integer')
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('suspended_until_ms', 'bigint')
    .addColumn('alarm_priority', 'integer', (c) => c.notNull())
    .addColumn('by_json', 'text')
    .addColumn('active_since_ms', 'bigint', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('schedules_device').on('schedules').columns(['device_id']).execute();
  await db.schema
    .createTable('schedule_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('schedule_id', 'text', (c) => c.notNull())
    .addColumn('schedule_name', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('planned_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('ran_at_ms', 'bigint')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('command_id', 'text')
    .addColumn('reason_json', 'text')
    .addUniqueConstraint('schedule_runs_once', ['schedule_id', 'trigger', 'planned_at_ms'])
    .execute();
  await db.schema.createIndex('schedule_runs_schedule').on('schedule_runs').columns(['schedule_id', 'planned_at_ms']).execute();
  await db.schema.createIndex('schedule_runs_pending').on('schedule_runs').columns(['status', 'device_id']).execute();
}
