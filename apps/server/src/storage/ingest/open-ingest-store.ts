import type { FastifyBaseLogger } from 'fastify';
import type { Storage } from '../storage';
import type { StorageHealth } from '../storage-health';
import type { IngestStore } from './ingest-store';
import { PostgresIngestStore } from './postgres/postgres-ingest-store';
import { SqliteIngestStore } from './sqlite/sqlite-ingest-store';

export interface IngestStoreDeps {
  storage: Storage;
  storageHealth: StorageHealth;
  log: FastifyBaseLogger;
  /** Readings older than this get no PostgreSQL partition of their own (retention will drop them). */
  retentionDays: number;
}

/**
 * The ingest side's one writer, the engine's own way: on SQLite a thread holding the one
 * connection that writes, on PostgreSQL the pool (docs/decisions/014-ingest-store.md). Built
 * before the features that write through it (alarms, notifications, telemetry).
 */
export function openIngestStore({ storage, storageHealth, log, retentionDays }: IngestStoreDeps): IngestStore {
  return storage.engine === 'sqlite'
    ? new SqliteIngestStore(storage.file, storageHealth, log)
    : new PostgresIngestStore(storage.pool, storage.partitions, storageHealth, log, retentionDays);
}
