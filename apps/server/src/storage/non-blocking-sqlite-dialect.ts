import { SqliteDialect, type CompiledQuery, type SqliteDialectConfig, type DatabaseConnection, type Driver, type QueryResult, type TransactionSettings } from 'kysely';

/** How long a statement waits for the write lock before its SQLITE_BUSY is the answer (as busy_timeout did). */
const LOCK_WAIT_MS = 5_000;
/** The pauses between tries: short at first (a commit of the writer thread takes a few ms), then at most this. */
const FIRST_PAUSE_MS = 1;
const LONGEST_PAUSE_MS = 20;

/**
 * Kysely's SQLite dialect, but a statement that finds the write lock taken waits for it off the
 * event loop. The ingest store's writer thread holds the lock for every commit (tens of ms for a
 * batch of thousands of readings); SQLite's own busy handler would wait by sleeping the calling
 * thread, which for the server's main connection is the thread that answers every request and
 * socket. So the main connection runs with `busy_timeout = 0` and this dialect tries again after
 * a pause on a timer, up to LOCK_WAIT_MS (docs/decisions/019-event-loop-and-sqlite.md).
 *
 * Only the plain SQLITE_BUSY is tried again: it means nothing was done. SQLITE_BUSY_SNAPSHOT (a
 * transaction that read an older snapshot and now wants to write) can never succeed by waiting,
 * and SQLite's own handler never waited for it either.
 */
export class NonBlockingSqliteDialect extends SqliteDialect {
  private readonly lockWaitMs: number;

  constructor(config: SqliteDialectConfig & { lockWaitMs?: number }) {
    super(config);
    this.lockWaitMs = config.lockWaitMs ?? LOCK_WAIT_MS;
  }

  override createDriver(): Driver {
    return new LockWaitingDriver(super.createDriver(), this.lockWaitMs);
  }
}

class LockWaitingDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly lockWaitMs: number,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new LockWaitingConnection(await this.inner.acquireConnection(), this.lockWaitMs);
  }

  // The inner driver runs BEGIN, COMMIT and savepoints through the connection it is given: this one.
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  savepoint(...args: Parameters<NonNullable<Driver['savepoint']>>): Promise<void> {
    return this.inner.savepoint!(...args);
  }

  rollbackToSavepoint(...args: Parameters<NonNullable<Driver['rollbackToSavepoint']>>): Promise<void> {
    return this.inner.rollbackToSavepoint!(...args);
  }

  releaseSavepoint(...args: Parameters<NonNullable<Driver['releaseSavepoint']>>): Promise<void> {
    return this.inner.releaseSavepoint!(...args);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection((connection as LockWaitingConnection).inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

class LockWaitingConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly lockWaitMs: number,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const deadline = Date.now() + this.lockWaitMs;
    for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
      try {
        return await this.inner.executeQuery<R>(query);
      } catch (err) {
        if ((err as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() + pause > deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}
