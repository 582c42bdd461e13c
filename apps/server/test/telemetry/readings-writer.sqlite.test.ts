// The readings writer on a real SQLite file: what it remembers as seen is exactly what it stored,
// across a failed transaction, a reopen, and the migration from the per-reading dedupe table.
import fs from 'node:fs';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openStorage, type SqliteStorage as Storage } from '../../src/storage/database';
import * as m001 from '../../src/storage/migrations/001-initial';
import * as m002 from '../../src/storage/migrations/002-readings-covering-index';
import { SqliteReadingsWriter } from '../../src/storage/ingest/sqlite/readings.sqlite';
import type { ReadingRow as ReadingToStore } from '../../src/storage/ingest/rows';
import { tempDataDir } from '../helpers/server';

const NOW = Date.now();
const dirs: string[] = [];
const opened: Storage[] = [];

async function open(dir: string): Promise<Storage> {
  const storage = await openStorage(dir);
  opened.push(storage);
  storage.sqlite
    .prepare(
      `INSERT OR IGNORE INTO devices (id, name, location, type, config_json, created_at_ms, updated_at_ms)
       VALUES ('d1', 'D1', 'x', 'level_sensor', '{}', 0, 0)`,
    )
    .run();
  return storage;
}

function newDir(): string {
  const dir = tempDataDir();
  dirs.push(dir);
  return dir;
}

function reading(seq: number | null, over: Partial<ReadingToStore> = {}): ReadingToStore {
  return { deviceId: 'd1', tsMs: NOW - 1000 + (seq ?? 0), valueNum: 1.5, valueText: null, status: 'normal', rawNum: null, seq, boot: 'b', receivedMs: NOW, fromDevice: true, ...over };
}

function count(storage: Storage): number {
  return storage.sqlite.prepare('SELECT COUNT(*) FROM readings').pluck().get() as number;
}

afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('SqliteReadingsWriter', () => {
  it('stores 150 readings with multi-row inserts in order, and refuses their repeats', async () => {
    const storage = await open(newDir());
    const writer = new SqliteReadingsWriter(storage.sqlite);
    const batch = Array.from({ length: 150 }, (_, i) => reading(i, { valueNum: i / 100 }));
    expect(writer.write(batch).every(Boolean)).toBe(true);
    const values = storage.sqlite.prepare('SELECT value_num FROM readings ORDER BY id').pluck().all();
    expect(values).toEqual(batch.map((r) => r.valueNum));
    expect(writer.write([reading(0), reading(149), reading(150), reading(null)])).toEqual([false, false, true, true]);
    expect(count(storage)).toBe(152);
    // One run row stands for the 151 consecutive seqs.
    expect(storage.sqlite.prepare('SELECT seq_from, seq_to FROM telemetry_seq_runs').all()).toEqual([{ seq_from: 0, seq_to: 150 }]);
  });

  it('a failed transaction stores nothing and forgets its seqs, so a resend is stored', async () => {
    const storage = await open(newDir());
    const writer = new SqliteReadingsWriter(storage.sqlite);
    writer.write([reading(0)]);
    const broken = [reading(1), reading(2), reading(3, { status: null as never })]; // NOT NULL fails
    expect(() => writer.write(broken)).toThrow(/NOT NULL/);
    expect(count(storage)).toBe(1);
    expect(writer.write([reading(1), reading(2), reading(3)])).toEqual([true, true, true]);
    expect(count(storage)).toBe(4);
  });

  it('after a reopen the seqs seen in the last 24 h are still duplicates', async () => {
    const dir = newDir();
    const first = await open(dir);
    const writer = new SqliteReadingsWriter(first.sqlite);
    writer.write([reading(0), reading(1), reading(7), reading(8, { boot: 'other' })]);
    await first.close();
    opened.pop();

    const again = await open(dir);
    const reopened = new SqliteReadingsWriter(again.sqlite);
    expect(reopened.write([reading(0), reading(1), reading(7), reading(8, { boot: 'other' }), reading(2), reading(8)])).toEqual([
      false,
      false,
      false,
      false,
      true,
      true,
    ]);
    expect(count(again)).toBe(6);
  });

  it('forgets seqs older than 24 h, and a purged device’s seqs', async () => {
    const storage = await open(newDir());
    const writer = new SqliteReadingsWriter(storage.sqlite);
    const dayAgo = NOW - 24 * 3600 * 1000 - 1;
    writer.write([reading(0, { receivedMs: dayAgo }), reading(5)]);
    writer.pruneExpiredSeqs(NOW);
    expect(storage.sqlite.prepare('SELECT seq_from FROM telemetry_seq_runs').pluck().all()).toEqual([5]);
    expect(writer.write([reading(0), reading(5)])).toEqual([true, false]);
    writer.forgetDevice('d1');
    expect(storage.sqlite.prepare('SELECT COUNT(*) FROM telemetry_seq_runs').pluck().get()).toBe(0);
    expect(writer.write([reading(5)])).toEqual([true]);
  });
});

describe('migration 003', () => {
  it('turns the last 24 h of the per-reading dedupe table into runs and drops it', async () => {
    const dir = newDir();
    const sqlite = new BetterSqlite3(`${dir}/agua.db`);
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => ({ '001-initial': m001, '002-readings-covering-index': m002 }) } });
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const insert = sqlite.prepare('INSERT INTO telemetry_dedupe (device_id, boot, seq, received_ms) VALUES (?, ?, ?, ?)');
    for (const seq of [0, 1, 2, 3, 10, 11]) insert.run('d1', 'b', seq, NOW - 1000);
    insert.run('d1', 'old', 0, NOW - 25 * 3600 * 1000);
    await db.destroy();

    const storage = await open(dir);
    const runs = storage.sqlite.prepare('SELECT boot, seq_from, seq_to FROM telemetry_seq_runs ORDER BY seq_from').all();
    expect(runs).toEqual([
      { boot: 'b', seq_from: 0, seq_to: 3 },
      { boot: 'b', seq_from: 10, seq_to: 11 },
    ]);
    const tables = storage.sqlite.prepare("SELECT name FROM sqlite_master WHERE name IN ('telemetry_dedupe', 'readings_ts')").all();
    expect(tables).toEqual([]);
    const writer = new SqliteReadingsWriter(storage.sqlite);
    expect(writer.write([reading(3), reading(4), reading(11), reading(0, { boot: 'old' })])).toEqual([false, true, false, true]);
  });
});
