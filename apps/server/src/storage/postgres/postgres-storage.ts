import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, type Migration } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../schema';
import * as p001 from './migrations/001-baseline';
import * as p002 from './migrations/002-seq-boots';
import * as p003 from './migrations/003-device-geometries';
import * as p004 from './migrations/004-daily-totals';
import * as p005 from './migrations/005-reading-raw';
import * as p006 from './migrations/006-alarm-rule-water';
import * as p007 from './migrations/007-overflow-events';
import * as p009 from './migrations/009-water-hours';
import * as p010 from './migrations/010-reports';
import * as p011 from './migrations/011-control';
import * as p012 from './migrations/012-two-factor';
import * as p013 from './migrations/013-sites';
import { ReadingPartitions } from './reading-partitions';
import { EngineClient, markPoolFailures } from './engine-errors';
import { SingleInstanceLock } from './single-instance';

/** PostgreSQL's own migrations (SQLite's history before this baseline never reaches PostgreSQL). */
const MIGRATIONS: Record<string, Migration> = {
  '001-baseline': p001,
  '002-seq-boots': p002,
  '003-device-geometries': p003,
  '004-daily-totals': p004,
  '005-reading-raw': p005,
  '006-alarm-rule-water': p006,
  '007-overflow-events': p007,
  '009-water-hours': p009,
  '010-reports': p010,
  '011-control': p011,
  '012-two-factor': p012,
  '013-sites': p013,
};

/** The oldest PostgreSQL the schema is written for (declarative partitioning with a default partition, MERGE-free SQL). */
const MIN_SERVER_VERSION = 150000;

/** How long a start waits for PostgreSQL to answer before it gives up (docs/operations.md). */
export const START_WAIT_MS = 60_000;

/** How long a start waits for another instance to let go of the database (a restart's old connection goes within moments). */
const INSTANCE_WAIT_MS = 10_000;

/** PostgreSQL could not be reached, or is not one the server can use; the message names DATABASE_URL. */
export class DatabaseUnreachableError extends Error {}

export interface PostgresStorage {
  engine: 'postgres';
  db: Kysely<Database>;
  /** For the writer's transactions, which hold one client from BEGIN to COMMIT. */
  pool: pg.Pool;
  partitions: ReadingPartitions;
  /** Whether the database answers at all. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Every `bigint` the schema holds is epoch milliseconds, a count or a row id: all well inside
 * 2^53, so they are numbers here as they are on SQLite (pg would return strings).
 */
const TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/** `host:port/database` of a URL, for messages: never the user or password. */
export function describeDatabase(url: string): string {
  const u = new URL(url);
  return `${u.hostname || u.searchParams.get('host') || 'localhost'}:${u.port || '5432'}${u.pathname}`;
}

/**
 * Opens the pool on DATABASE_URL, waiting up to START_WAIT_MS for PostgreSQL to answer, takes the
 * database for this instance alone (SingleInstanceLock), applies
 * pending migrations (several instances may start at once: Kysely's migrator holds a PostgreSQL
 * advisory lock for it) and makes the readings' partitions of the days ahead.
 */
export async function openPostgresStorage(
  url: string,
  opts: {
    log: FastifyBaseLogger;
    applicationName?: string;
    waitMs?: number;
    /**
     * How this process holds the database: alone (a lone instance), shared with the other
     * instances of a cluster (REDIS_URL), or not at all (a command-line tool).
     */
    hold?: 'alone' | 'shared' | 'none';
  },
): Promise<PostgresStorage> {
  const pool = new pg.Pool({
    Client: EngineClient,
    connectionString: url,
    max: 10,
    types: TYPES,
    connectionTimeoutMillis: 5_000,
    keepAlive: true,
    application_name: opts.applicationName ?? 'agua',
  });
  markPoolFailures(pool);
  // An idle client's connection can break (a restart of PostgreSQL); the pool replaces it. Without
  // a listener that error would end the process.
  pool.on('error', (err) => opts.log.warn({ err: { message: err.message, code: (err as { code?: string }).code } }, 'an idle PostgreSQL connection failed'));
  // A client checked out of the pool has no listener of the pool's: the end of its connection (a
  // restart of PostgreSQL mid-transaction) would be an unhandled 'error' event and end the
  // process. The query in flight still fails, and the write with it (503).
  pool.on('connect', (client) =>
    client.on('error', (err) => opts.log.warn({ err: { message: err.message, code: (err as { code?: string }).code } }, 'a PostgreSQL connection failed')),
  );
  const hold = opts.hold ?? 'alone';
  const instanceLock = hold === 'none' ? null : new SingleInstanceLock(url, opts.log, describeDatabase(url), hold === 'shared');
  try {
    await waitForServer(pool, url, opts.log, opts.waitMs ?? START_WAIT_MS);
    await instanceLock?.acquire(INSTANCE_WAIT_MS);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
    const partitions = new ReadingPartitions(pool, opts.log);
    await partitions.makeAhead();
    return {
      engine: 'postgres',
      db,
      pool,
      partitions,
      ping: async () => {
        await pool.query('SELECT 1');
      },
      close: async () => {
        await db.destroy();
        await instanceLock?.release();
      },
    };
  } catch (err) {
    await instanceLock?.release();
    await pool.end().catch(() => undefined);
    throw err;
  }
}

async function waitForServer(pool: pg.Pool, url: string, log: FastifyBaseLogger, waitMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  let told = false;
  for (;;) {
    try {
      const { rows } = await pool.query<{ v: number }>('SELECT current_setting(\'server_version_num\')::int AS v');
      if (rows[0]!.v < MIN_SERVER_VERSION) {
        throw new DatabaseUnreachableError(`DATABASE_URL (${describeDatabase(url)}) is PostgreSQL ${rows[0]!.v}; version 15 or later is needed`);
      }
      if (told) log.info({ database: describeDatabase(url) }, 'PostgreSQL answers');
      return;
    } catch (err) {
      if (err instanceof DatabaseUnreachableError) throw err;
      const reason = (err as Error).message;
      // A wrong password or database name will not mend by waiting.
      if (['28P01', '28000', '3D000'].includes((err as { code?: string }).code ?? '')) {
        throw new DatabaseUnreachableError(`DATABASE_URL (${describeDatabase(url)}): ${reason}`);
      }
      if (Date.now() >= deadline) {
        throw new DatabaseUnreachableError(`PostgreSQL at DATABASE_URL (${describeDatabase(url)}) did not answer within ${Math.round(waitMs / 1000)} s: ${reason}`);
      }
      if (!told) log.warn({ database: describeDatabase(url), reason }, 'waiting for PostgreSQL (DATABASE_URL)');
      told = true;
      await sleep(1_000);
    }
  }
}
