// Upgrading a PostgreSQL database from one row per seq (migration 001) to runs per (device, boot)
// (migration 002): the seqs of the last 24 h carry over as runs, so a resend that arrives across
// the upgrade is still caught; older ones are let go.
import fs from 'node:fs';
import pg from 'pg';
import pino from 'pino';
import { Kysely, PostgresDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresIngestStore } from '../../src/storage/ingest/postgres/postgres-ingest-store';
import * as p001 from '../../src/storage/postgres/migrations/001-baseline';
import * as p002 from '../../src/storage/postgres/migrations/002-seq-boots';
import { openPostgresStorage, type PostgresStorage } from '../../src/storage/postgres/postgres-storage';
import { createTestDatabase, dropTestDatabase } from '../helpers/postgres';
import { tempDataDir } from '../helpers/server';

const log = pino({ level: 'silent' });

describe('PostgreSQL migration 002: seqs become runs', () => {
  const dataDir = tempDataDir();
  let url: string;
  let storage: PostgresStorage | undefined;
  beforeAll(async () => {
    url = await createTestDatabase(dataDir);
  });
  afterAll(async () => {
    await storage?.close();
    await dropTestDatabase(dataDir);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the seqs of the last 24 h as runs and drops the old table', async () => {
    const now = Date.now();
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
    await p001.up(db);
    const seqs: [string, string, number, number][] = [
      ['d1', 'b1', 1, now - 5000], ['d1', 'b1', 2, now - 4000], ['d1', 'b1', 3, now - 3000],
      ['d1', 'b1', 10, now - 2000], ['d1', 'b1', 11, now - 1000],
      ['d1', 'b2', 7, now - 500],
      ['d2', 'b1', 4, now - 26 * 3_600_000], // past the window: let go
    ];
    for (const [deviceId, boot, seq, receivedMs] of seqs) {
      await pool.query('INSERT INTO telemetry_seqs (device_id, boot, seq, received_ms) VALUES ($1, $2, $3, $4)', [deviceId, boot, seq, receivedMs]);
    }
    await p002.up(db);
    const rows = await pool.query<{ device_id: string; boot: string; runs: string[]; last_received_ms: number }>(
      'SELECT device_id, boot, runs, last_received_ms FROM telemetry_seq_boots ORDER BY device_id, boot',
    );
    expect(rows.rows.map((r) => [r.device_id, r.boot, r.runs.map(Number), Number(r.last_received_ms)])).toEqual([
      ['d1', 'b1', [1, 3, now - 5000, now - 3000, 10, 11, now - 2000, now - 1000], now - 1000],
      ['d1', 'b2', [7, 7, now - 500, now - 500], now - 500],
    ]);
    expect((await pool.query("SELECT to_regclass('telemetry_seqs') AS t")).rows[0].t).toBeNull();
    // The migrator's own bookkeeping, so that the server sees both applied.
    await pool.query('CREATE TABLE kysely_migration (name varchar(255) PRIMARY KEY, timestamp varchar(255) NOT NULL)');
    await pool.query('CREATE TABLE kysely_migration_lock (id varchar(255) PRIMARY KEY, is_locked integer NOT NULL DEFAULT 0)');
    await pool.query("INSERT INTO kysely_migration VALUES ('001-baseline', now()::text), ('002-seq-boots', now()::text)");
    await db.destroy();

    // A resend across the upgrade is a duplicate; the seq after it is new.
    storage = await openPostgresStorage(url, { log, hold: 'shared' });
    const store = new PostgresIngestStore(storage.pool, storage.partitions, null, log, 365);
    const reading = (seq: number) => ({ deviceId: 'd1', tsMs: now + seq, valueNum: 1, valueText: null, status: 'normal' as const, rawNum: null, seq, boot: 'b1', receivedMs: Date.now(), fromDevice: true });
    expect(await store.write([reading(2), reading(11), reading(12), reading(4)])).toEqual([false, false, true, true]);
  });
});
