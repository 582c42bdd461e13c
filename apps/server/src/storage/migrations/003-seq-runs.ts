import { sql, type Kysely } from 'kysely';

const DUPLICATE_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Deduplication memory as runs of consecutive seqs (storage/ingest/seq-runs.ts) instead of one row per
 * reading, and no index on readings.ts_ms alone (retention walks (device_id, ts_ms)): each index
 * and row left out is work saved on every stored reading. Seqs seen in the last 24 h carry over.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('telemetry_seq_runs')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('boot', 'text', (c) => c.notNull())
    .addColumn('seq_from', 'bigint', (c) => c.notNull())
    .addColumn('seq_to', 'bigint', (c) => c.notNull())
    .addColumn('first_received_ms', 'bigint', (c) => c.notNull())
    .addColumn('last_received_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('telemetry_seq_runs_last').on('telemetry_seq_runs').column('last_received_ms').execute();

  // Gaps and islands: consecutive seqs of a (device, boot) share seq - row_number.
  await sql`
    INSERT INTO telemetry_seq_runs (device_id, boot, seq_from, seq_to, first_received_ms, last_received_ms)
    SELECT device_id, boot, MIN(seq), MAX(seq), MIN(received_ms), MAX(received_ms)
    FROM (SELECT device_id, boot, seq, received_ms,
                 seq - ROW_NUMBER() OVER (PARTITION BY device_id, boot ORDER BY seq) AS island
          FROM telemetry_dedupe WHERE received_ms >= ${Date.now() - DUPLICATE_WINDOW_MS}) AS seen
    GROUP BY device_id, boot, island`.execute(db);

  await db.schema.dropTable('telemetry_dedupe').execute();
  await db.schema.dropIndex('readings_ts').execute();
}
