import { sql, type Kysely } from 'kysely';

/** Versioned geometry and calibration of level sensors, as SQLite's 008 (docs/water.md). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE device_geometries (
      device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
      version integer NOT NULL,
      valid_from_ms bigint NOT NULL,
      by_json text,
      body text NOT NULL,
      PRIMARY KEY (device_id, version)
    );
  `.execute(db);
}
