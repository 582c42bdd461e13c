import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/env';
import { openStorage as openSqliteStorage, type SqliteStorage } from './database';
import { openPostgresStorage, type PostgresStorage } from './postgres/postgres-storage';

/** The database the server runs on: SQLite in DATA_DIR (the default), or PostgreSQL (DATABASE_URL). */
export type Storage = SqliteStorage | PostgresStorage;

/** Opens the configured engine and brings its schema up to date. */
export function openConfiguredStorage(config: Config, log: FastifyBaseLogger, instanceName?: string): Promise<Storage> {
  if (config.databaseUrl === null) return openSqliteStorage(config.dataDir);
  return openPostgresStorage(config.databaseUrl, { log, applicationName: instanceName ? `agua ${instanceName}` : 'agua' });
}
