import { sql, type Kysely } from 'kysely';

/** Overflow events and how far each device's readings were judged, as SQLite's 012 (docs/water.md "Overflow events"). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE overflow_events (
      id text PRIMARY KEY,
      device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
      started_at_ms bigint NOT NULL,
      ended_at_ms bigint,
      last_reading_ms bigint NOT NULL,
      peak_level_m double precision NOT NULL,
      volume_m3 double precision,
      method text,
      cause text,
      notified_at_ms bigint,
      notes text,
      updated_at_ms bigint NOT NULL
    );
    CREATE UNIQUE INDEX overflow_events_device_started ON overflow_events (device_id, started_at_ms);
    CREATE INDEX overflow_events_started ON overflow_events (started_at_ms);
    CREATE TABLE overflow_cursors (
      device_id text PRIMARY KEY REFERENCES devices (id) ON DELETE CASCADE,
      judged_to_ms bigint NOT NULL,
      late_from_ms bigint
    );
  `.execute(db);
}
