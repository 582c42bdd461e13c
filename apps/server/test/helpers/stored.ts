// What a stopped server left in its database, read without a server: the SQLite file of its data
// folder, or the data folder's database on PostgreSQL (TEST_DATABASE=postgres).
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { DATABASE_FILE } from '../../src/storage/database';
import { createTestDatabase, TEST_ENGINE } from './postgres';

/** Rows of a query (`?` placeholders) on the database of a data folder; none where no server ever made its schema. */
export async function storedRows<T = Record<string, unknown>>(dataDir: string, text: string, ...params: unknown[]): Promise<T[]> {
  if (TEST_ENGINE === 'sqlite') {
    if (!fs.existsSync(path.join(dataDir, DATABASE_FILE))) return [];
    const db = new BetterSqlite3(path.join(dataDir, DATABASE_FILE), { readonly: true, fileMustExist: true });
    try {
      return db.prepare(text).all(...params) as T[];
    } finally {
      db.close();
    }
  }
  let n = 0;
  const client = new pg.Client({ connectionString: await createTestDatabase(dataDir) });
  await client.connect();
  try {
    const made = await client.query("SELECT to_regclass('kysely_migration') IS NOT NULL AS made");
    if (!made.rows[0].made) return [];
    const { rows } = await client.query(text.replace(/\?/g, () => `$${++n}`), params);
    // COUNT(*) and bigints arrive as strings from a plain client: numbers, as the server reads them.
    return rows.map((r: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && /^-?\d+$/.test(v) && k !== 'id' ? Number(v) : v])),
    ) as T[];
  } finally {
    await client.end();
  }
}
