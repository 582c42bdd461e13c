import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withStatementCache } from '../../src/storage/statement-cache';

interface Db {
  t: { id: number; v: string };
}

describe('statement cache under Kysely (storage/statement-cache.ts)', () => {
  let dir: string;
  let sqlite: BetterSqlite3.Database;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-stmt-cache-'));
    sqlite = new BetterSqlite3(path.join(dir, 'c.db'));
    sqlite.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
  });
  afterEach(() => {
    if (sqlite.open) sqlite.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('hands out the same statement for the same query, and answers with its new parameters', async () => {
    const prepared: string[] = [];
    const counting = Object.assign(Object.create(sqlite) as BetterSqlite3.Database, {
      prepare: (text: string) => {
        prepared.push(text);
        return sqlite.prepare(text);
      },
    });
    const db = new Kysely<Db>({ dialect: new SqliteDialect({ database: withStatementCache(counting) }) });
    for (let i = 1; i <= 5; i++) await db.insertInto('t').values({ id: i, v: `v${i}` }).execute();
    for (let i = 1; i <= 5; i++) {
      const row = await db.selectFrom('t').select('v').where('id', '=', i).executeTakeFirstOrThrow();
      expect(row.v).toBe(`v${i}`);
    }
    // One prepare per distinct SQL text: one insert, one select.
    expect(prepared).toHaveLength(2);
  });

  it('gives a query issued while the same query is still being streamed a statement of its own', async () => {
    const db = new Kysely<Db>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    await db.insertInto('t').values([1, 2, 3].map((id) => ({ id, v: `v${id}` }))).execute();
    const query = db.selectFrom('t').select('id').orderBy('id');
    const streamed: number[] = [];
    // Kysely's SQLite driver holds its single connection during a stream: the inner query goes to a
    // second Kysely over the same cache, which is what a second caller of the cache looks like.
    const cache = withStatementCache(sqlite);
    const outer = new Kysely<Db>({ dialect: new SqliteDialect({ database: cache }) });
    const inner = new Kysely<Db>({ dialect: new SqliteDialect({ database: cache }) });
    for await (const row of outer.selectFrom('t').select('id').orderBy('id').stream()) {
      streamed.push(row.id);
      // Busy statement of the same text: a fresh one, which must answer in full.
      const all = await inner.selectFrom('t').select('id').orderBy('id').execute();
      expect(all.map((r) => r.id)).toEqual([1, 2, 3]);
    }
    expect(streamed).toEqual([1, 2, 3]);
    expect((await query.execute()).length).toBe(3);
  });

  it('drops the least recently used statement past its capacity, and a kept one survives a schema change', async () => {
    const db = new Kysely<Db>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite, 2) }) });
    await db.insertInto('t').values({ id: 1, v: 'a' }).execute();
    for (let i = 0; i < 5; i++) await sql`SELECT ${sql.lit(i)} AS n`.execute(db);
    await sql`ALTER TABLE t ADD COLUMN w TEXT`.execute(db);
    const row = await db.selectFrom('t').selectAll().executeTakeFirstOrThrow();
    expect(row).toEqual({ id: 1, v: 'a', w: null });
  });
});
