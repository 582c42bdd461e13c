// The test suite's second engine: with TEST_DATABASE=postgres every test server runs on a
// database of its own on this machine's PostgreSQL, created for its data folder and dropped
// with it (the folder stays the server's identity across restarts, as on SQLite).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';

export const TEST_ENGINE: 'sqlite' | 'postgres' = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';

/** The machine's PostgreSQL, as a user that may create databases (trust authentication here). */
export const PG_ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const PREFIX = 'agua_t_';

/** The database of a data folder: a name made from its path, which the database's comment keeps. */
export function databaseNameOf(dataDir: string): string {
  return PREFIX + createHash('sha256').update(dataDir).digest('hex').slice(0, 16);
}

export function databaseUrlOf(name: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates the data folder's database if it has none and returns its URL. */
export async function createTestDatabase(dataDir: string): Promise<string> {
  const name = databaseNameOf(dataDir);
  await withAdmin(async (client) => {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) {
      await client.query(`CREATE DATABASE ${name}`);
      await client.query(`COMMENT ON DATABASE ${name} IS ${client.escapeLiteral(dataDir)}`);
    }
  });
  return databaseUrlOf(name);
}

/** The environment that puts a server of this data folder on its engine: DATABASE_URL on PostgreSQL, nothing on SQLite. */
export async function testDatabaseEnv(dataDir: string): Promise<Record<string, string>> {
  return TEST_ENGINE === 'postgres' ? { DATABASE_URL: await createTestDatabase(dataDir) } : {};
}

/** Drops the data folder's database (whatever the pass: tests of PostgreSQL itself make one on SQLite's pass too). */
export async function dropTestDatabase(dataDir: string): Promise<void> {
  await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${databaseNameOf(dataDir)} WITH (FORCE)`));
}

/** Drops the test databases whose data folder is gone (a run that ended without cleaning up). */
export async function dropOrphanDatabases(): Promise<number> {
  return withAdmin(async (client) => {
    const { rows } = await client.query<{ name: string; dir: string | null }>(
      "SELECT datname AS name, shobj_description(oid, 'pg_database') AS dir FROM pg_database WHERE datname LIKE 'agua\\_t\\_%'",
    );
    let dropped = 0;
    for (const { name, dir } of rows) {
      if (dir && fs.existsSync(dir)) continue;
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      dropped++;
    }
    return dropped;
  });
}
