import { sql, type Kysely } from 'kysely';

/** Two-factor sign-in, as SQLite's 017 (docs/security.md). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE users
      ADD COLUMN totp_secret text,
      ADD COLUMN totp_pending_secret text,
      ADD COLUMN totp_last_step bigint,
      ADD COLUMN totp_enabled_at_ms bigint;
    CREATE TABLE recovery_codes (
      user_id text NOT NULL,
      code_hash text NOT NULL,
      used_at_ms bigint,
      PRIMARY KEY (user_id, code_hash)
    );
    ALTER TABLE sessions ADD COLUMN must_enrol_totp integer NOT NULL DEFAULT 0;
  `.execute(db);
}
