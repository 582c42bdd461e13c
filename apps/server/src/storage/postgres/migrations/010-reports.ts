import { sql, type Kysely } from 'kysely';

/** Report definitions, runs and files, as SQLite's 015 (docs/reports.md). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE report_definitions (
      id text PRIMARY KEY,
      name text NOT NULL,
      kind text NOT NULL,
      device_ids_json text,
      formats_json text NOT NULL,
      recipients_json text NOT NULL,
      schedule_json text,
      enabled integer NOT NULL,
      created_at_ms bigint NOT NULL,
      enabled_at_ms bigint NOT NULL,
      updated_at_ms bigint NOT NULL
    );
    CREATE TABLE report_runs (
      id text PRIMARY KEY,
      report_id text NOT NULL,
      definition_json text NOT NULL,
      from_date text NOT NULL,
      to_date text NOT NULL,
      status text NOT NULL,
      error text,
      requested_by_json text,
      send integer NOT NULL,
      schedule_key text UNIQUE,
      attempts integer NOT NULL,
      lease_until_ms bigint,
      mailed integer NOT NULL,
      created_at_ms bigint NOT NULL,
      finished_at_ms bigint
    );
    CREATE INDEX report_runs_created ON report_runs (created_at_ms, id);
    CREATE INDEX report_runs_report ON report_runs (report_id, created_at_ms);
    CREATE INDEX report_runs_status ON report_runs (status);
    CREATE TABLE report_files (
      run_id text NOT NULL REFERENCES report_runs (id) ON DELETE CASCADE,
      format text NOT NULL,
      bytes integer NOT NULL,
      sha256 text NOT NULL,
      content bytea NOT NULL,
      PRIMARY KEY (run_id, format)
    );
  `.execute(db);
}
