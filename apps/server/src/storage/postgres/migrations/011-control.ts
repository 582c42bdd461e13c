import { sql, type Kysely } from 'kysely';

/** Interlocks, two-person commands and gate schedules, as SQLite's 016 (docs/control.md). */
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
    CREATE TABLE schedules (
      id text PRIMARY KEY,
      device_id text NOT NULL,
      name text NOT NULL,
      action text NOT NULL,
      time text NOT NULL,
      days_json text NOT NULL,
      duration_min integer,
      enabled integer NOT NULL,
      suspended_until_ms bigint,
      alarm_priority integer NOT NULL,
      by_json text,
      active_since_ms bigint NOT NULL,
      created_at_ms bigint NOT NULL,
      updated_at_ms bigint NOT NULL
    );
    CREATE INDEX schedules_device ON schedules (device_id);
    CREATE TABLE schedule_runs (
      id text PRIMARY KEY,
      schedule_id text NOT NULL,
      schedule_name text NOT NULL,
      device_id text NOT NULL,
      action text NOT NULL,
      trigger text NOT NULL,
      planned_at_ms bigint NOT NULL,
      ran_at_ms bigint,
      status text NOT NULL,
      command_id text,
      reason_json text,
      CONSTRAINT schedule_runs_once UNIQUE (schedule_id, trigger, planned_at_ms)
    );
    CREATE INDEX schedule_runs_schedule ON schedule_runs (schedule_id, planned_at_ms);
    CREATE INDEX schedule_runs_pending ON schedule_runs (status, device_id);
  `.execute(db);
}
