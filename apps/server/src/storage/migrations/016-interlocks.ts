import type { Kysely } from 'kysely';

/**
 * Interlocks and two-person commands (docs/control.md): the interlocks in front of a device's
 * commands, and what a command now carries — the issuer's comment, its approval, the failed
 * interlocks it passed, and the schedule that issued it.
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
}
