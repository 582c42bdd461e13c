import { sql, type Kysely } from 'kysely';

/** Stored per-hour water figures, as SQLite's 014 (docs/water.md "Analytics: how they are answered"). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE water_hours (
      device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
      hour_ms bigint NOT NULL,
      geometry_version integer NOT NULL,
      deadband_m3 double precision,
      since_ms bigint,
      hour_state text NOT NULL,
      day_from_ms bigint,
      day_state text,
      computed_at_ms bigint NOT NULL,
      PRIMARY KEY (device_id, hour_ms)
    );
  `.execute(db);
}
