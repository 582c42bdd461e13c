import type { Kysely } from 'kysely';

/**
 * Two-factor sign-in (docs/security.md): a user's TOTP secret (pending until a first code
 * confirms it), the last time step accepted (so that no code counts twice), the hashed one-time
 * recovery codes, and the sessions that must enrol before they may do anything else.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, type] of [
    ['totp_secret', 'text'],
    ['totp_pending_secret', 'text'],
    ['totp_last_step', 'bigint'],
    ['totp_enabled_at_ms', 'bigint'],
  ] as const) {
    await db.schema.alterTable('users').addColumn(name, type).execute();
  }
  await db.schema
    .createTable('recovery_codes')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at_ms', 'bigint')
    .addPrimaryKeyConstraint('recovery_codes_pk', ['user_id', 'code_hash'])
    .execute();
  await db.schema.alterTable('sessions').addColumn('must_enrol_totp', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}
