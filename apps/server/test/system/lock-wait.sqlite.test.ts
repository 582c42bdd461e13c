import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openConnection, openStorage, type SqliteStorage } from '../../src/storage/database';
import { NonBlockingSqliteDialect } from '../../src/storage/non-blocking-sqlite-dialect';
import type { Database } from '../../src/storage/schema';

/** Counts event-loop turns of ~5 ms while `work` runs: a loop put to sleep counts none. */
async function loopTurnsDuring<T>(work: Promise<T>): Promise<{ result: T; turns: number; ms: number }> {
  let turns = 0;
  const timer = setInterval(() => turns++, 5);
  const started = performance.now();
  try {
    const result = await work;
    return { result, turns, ms: performance.now() - started };
  } finally {
    clearInterval(timer);
  }
}

describe('main-thread writes wait for the write lock off the event loop (storage/non-blocking-sqlite-dialect.ts)', () => {
  let dir: string;
  let storage: SqliteStorage;
  let other: BetterSqlite3.Database;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-lock-wait-'));
    storage = await openStorage(dir);
    // Another connection, as the ingest store's writer thread has, holding the write lock.
    other = openConnection(storage.file);
  });
  afterEach(async () => {
    if (other.inTransaction) other.exec('ROLLBACK');
    other.close();
    await storage.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a write waits while another connection commits, the event loop turning meanwhile, and then lands', async () => {
    other.exec('BEGIN IMMEDIATE');
    other.prepare("INSERT INTO settings (key, value) VALUES ('held', '1')").run();
    setTimeout(() => other.exec('COMMIT'), 300);
    const write = storage.db.insertInto('settings').values({ key: 'waited', value: '2' }).execute();
    const { turns, ms } = await loopTurnsDuring(write);
    expect(ms).toBeGreaterThanOrEqual(250);
    // SQLite's own busy handler would have slept the thread for the whole 300 ms: no turn at all.
    expect(turns).toBeGreaterThanOrEqual(20);
    const keys = (await storage.db.selectFrom('settings').select('key').where('key', 'in', ['held', 'waited']).execute()).map((r) => r.key).sort();
    expect(keys).toEqual(['held', 'waited']);
  });

  it('a transaction whose first write meets the lock waits too, and commits whole', async () => {
    other.exec('BEGIN IMMEDIATE');
    setTimeout(() => other.exec('COMMIT'), 200);
    const tx = storage.db.transaction().execute(async (trx) => {
      await trx.insertInto('settings').values({ key: 'a', value: '1' }).execute();
      await trx.insertInto('settings').values({ key: 'b', value: '2' }).execute();
    });
    const { turns } = await loopTurnsDuring(tx);
    expect(turns).toBeGreaterThanOrEqual(10);
    expect((await storage.db.selectFrom('settings').select('key').where('key', 'in', ['a', 'b']).execute()).length).toBe(2);
  });

  it('a lock held past the wait answers SQLITE_BUSY and writes nothing', async () => {
    const sqlite = new BetterSqlite3(storage.file);
    sqlite.pragma('busy_timeout = 0');
    const db = new Kysely<Database>({ dialect: new NonBlockingSqliteDialect({ database: sqlite, lockWaitMs: 150 }) });
    other.exec('BEGIN IMMEDIATE');
    const started = performance.now();
    await expect(db.insertInto('settings').values({ key: 'never', value: '1' }).execute()).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(100);
    other.exec('ROLLBACK');
    expect(await db.selectFrom('settings').select('key').where('key', '=', 'never').execute()).toEqual([]);
    await db.destroy();
  });
});
