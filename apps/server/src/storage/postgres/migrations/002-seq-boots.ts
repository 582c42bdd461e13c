import { sql, type Kysely } from 'kysely';

/** The window as it was when this migration was written (a migration never follows later changes). */
const DUPLICATE_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Deduplication memory as one row per (device, boot) holding its runs of consecutive seqs
 * (storage/ingest/seq-runs.ts), instead of one row per reading: a batch of 100 readings then updates
 * one row instead of inserting 100, and the readings themselves can go by COPY. The row is also
 * what serialises two instances writing the same (device, boot): the writer locks it before it
 * claims (storage/ingest/postgres/readings.pg.ts). `runs` is flat, four numbers per run in order of seq_from:
 * seq_from, seq_to, first_received_ms, last_received_ms; `version` changes with every write of the
 * row, so that a writer claiming against runs it remembers can tell they are still those stored.
 * Seqs seen in the last 24 h carry over.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE telemetry_seq_boots (
      device_id text NOT NULL,
      boot text NOT NULL,
      runs bigint[] NOT NULL,
      last_received_ms bigint NOT NULL,
      version bigint NOT NULL DEFAULT 0,
      PRIMARY KEY (device_id, boot)
    ) WITH (fillfactor = 50);
    -- No index beyond the key: every commit rewrites its boots' rows, and with only the key
    -- indexed (and room left on the page) those are HOT updates that write no index entry. The
    -- minute's prune reads the table whole: one row per device and boot.
    -- A writer that claimed against runs it knew finds them changed: it must read them again.
    CREATE FUNCTION agua_seq_runs_unchanged(unchanged boolean) RETURNS boolean LANGUAGE plpgsql AS $$
      BEGIN
        IF NOT unchanged THEN
          RAISE EXCEPTION 'seq runs changed by another writer' USING ERRCODE = 'serialization_failure';
        END IF;
        RETURN true;
      END $$;
  `.execute(db);

  // Gaps and islands: consecutive seqs of a (device, boot) share seq - row_number.
  await sql`
    INSERT INTO telemetry_seq_boots (device_id, boot, runs, last_received_ms)
    SELECT device_id, boot, array_agg(n ORDER BY seq_from, k), MAX(last_ms)
    FROM (SELECT device_id, boot, MIN(seq) AS seq_from, MAX(seq) AS seq_to, MIN(received_ms) AS first_ms, MAX(received_ms) AS last_ms
          FROM (SELECT device_id, boot, seq, received_ms,
                       seq - ROW_NUMBER() OVER (PARTITION BY device_id, boot ORDER BY seq) AS island
                FROM telemetry_seqs WHERE received_ms >= ${Date.now() - DUPLICATE_WINDOW_MS}) AS seen
          GROUP BY device_id, boot, island) AS runs,
         LATERAL unnest(ARRAY[seq_from, seq_to, first_ms, last_ms]) WITH ORDINALITY AS flat(n, k)
    GROUP BY device_id, boot`.execute(db);

  await sql`DROP TABLE telemetry_seqs`.execute(db);
}
