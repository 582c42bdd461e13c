import { sql, type Kysely } from 'kysely';

/** Daily totals of level sensors, as SQLite's 009 (docs/water.md "Daily totals"). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE daily_totals (
      device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
      date text NOT NULL,
      from_ms bigint NOT NULL,
      to_ms bigint NOT NULL,
      min_level_m double precision,
      max_level_m double precision,
      mean_level_m double precision,
      volume_start_m3 double precision,
      volume_end_m3 double precision,
      inflow_m3 double precision,
      outflow_m3 double precision,
      seconds_above_crest double precision,
      overflow_events integer NOT NULL,
      completeness_pct double precision NOT NULL,
      points integer NOT NULL,
      computed_at_ms bigint NOT NULL,
      PRIMARY KEY (device_id, date)
    );
  `.execute(db);
}
