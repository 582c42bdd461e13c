import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/env';
import { openStorage as openSqliteStorage, type SqliteStorage } from './database';
import { openPostgresStorage, type PostgresStorage } from './postgres/postgres-storage';

/** The database the server runs on: SQLite in DATA_DIR (the default), or PostgreSQL (DATABASE_URL). */
export type Storage = SqliteStorage | PostgresStorage;

/**
 * Opens the configured engine and brings its schema up to date. A serving instance holds a
 * PostgreSQL database alone, or shared with the other instances of a cluster (REDIS_URL)
 * (SingleInstanceLock); a tool (`asTool`) only borrows it.
 */
export function openConfiguredStorage(config: Config, log: FastifyBaseLogger, opts: { instanceName?: string; asTool?: boolean } = {}): Promise<Storage> {
  if (config.databaseUrl === null) return openSqliteStorage(config.dataDir);
  return openPostgresStorage(config.databaseUrl, {
    log,
    applicationName: opts.asTool ? 'agua tool' : `agua ${opts.instanceName ?? ''}`.trim(),
    hold: opts.asTool ? 'none' : config.redisUrl ? 'shared' : 'alone',
  });
}
