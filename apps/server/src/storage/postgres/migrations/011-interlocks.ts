import { sql, type Kysely } from 'kysely';

/** Interlocks and two-person commands, as SQLite's 016 (docs/control.md). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE interlocks (
      id text PRIMARY KEY,
      device_id text NOT NULL,
      command text NOT NULL,
      name text NOT NULL,
      conditions_json text NOT NULL,
      mode text NOT NULL,
      enabled integer NOT NULL,
      version integer NOT NULL,
      bypass_until_ms bigint,
      bypass_by_json text,
      bypass_comment text,
      created_at_ms bigint NOT NULL,
      updated_at_ms bigint NOT NULL
    );
    CREATE INDEX interlocks_target ON interlocks (device_id, command);
    CREATE INDEX interlocks_bypass ON interlocks (bypass_until_ms);
    ALTER TABLE commands
      ADD COLUMN comment text,
      ADD COLUMN approved_by_json text,
      ADD COLUMN approved_at_ms bigint,
      ADD COLUMN approval_expires_at_ms bigint,
      ADD COLUMN overrides_json text,
      ADD COLUMN schedule_id text;
    CREATE INDEX commands_awaiting ON commands (status, approval_expires_at_ms);
  `.execute(db);
}
