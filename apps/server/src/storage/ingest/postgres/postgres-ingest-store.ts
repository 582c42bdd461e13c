import type pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { dayOf, type ReadingPartitions } from '../../postgres/reading-partitions';
import { StorageUnavailableError, type StorageHealth } from '../../storage-health';
import { AlarmWriteOrder, refusedAlarmWrite } from '../alarm-write-order';
import type { IngestStore } from '../ingest-store';
import type { AlarmChangeRow, GateStateRow, LastSeenRow, OutboxClaimRow, OutboxOutcomeRow, OutboxRow, ReadingRow } from '../rows';
import { writeGateState, writeLastSeen } from './device-state.pg';
import { PgAlarmChangesWriter } from './alarm-changes.pg';
import { PgOutboxWriter } from './outbox.pg';
import { PgReadingsWriter } from './readings.pg';

const DAY_MS = 24 * 3600 * 1000;
/** deadlock_detected, serialization_failure: nothing was written, the same write may simply be made again. */
const RETRYABLE = new Set(['40P01', '40001']);
const WRITE_ATTEMPTS = 3;

/**
 * The ingest store on PostgreSQL (the counterpart of the SQLite writer thread; the pool's
 * I/O never blocks the event loop, so no thread is needed). Each call is one transaction on a
 * client of the pool, answered after COMMIT: a reading is acknowledged only once PostgreSQL has
 * it, and a commit whose answer was lost (the connection broke) is retried by the device and
 * caught as a duplicate by its seq.
 */
export class PostgresIngestStore implements IngestStore {
  private readonly readings = new PgReadingsWriter();
  private readonly outbox = new PgOutboxWriter();
  private readonly alarms = new PgAlarmChangesWriter(this.outbox);
  /**
   * Group commits handed over at once, each on its own connection: one commits while the next is
   * being written. Readings alone commute (seqs are claimed under their (device, boot) row's lock
   * or version, the current reading only moves forward); writes that carry alarm changes are
   * chained in the order they were made.
   */
  readonly concurrentWrites = 2;
  private readonly inFlight = new Set<Promise<unknown>>();
  /** The last write with alarm changes: the next one waits for it (it was computed on top of it). */
  private alarmTail: Promise<unknown> = Promise.resolve();
  private readonly alarmOrder = new AlarmWriteOrder();
  private closed = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly partitions: ReadingPartitions,
    private readonly health: StorageHealth | null,
    private readonly log: FastifyBaseLogger,
    /** Readings older than this get no partition of their own (retention will drop them). */
    private readonly retentionDays: number,
  ) {}

  write(items: ReadingRow[], changes: AlarmChangeRow[] = []): Promise<boolean[]> {
    const alsoInTransaction = changes.length > 0 ? (client: pg.ClientBase) => this.alarms.writeAll(client, changes) : undefined;
    // The readings writer opens and commits its transaction itself (BEGIN and COMMIT ride with its statements).
    const write = (): Promise<boolean[]> => this.onClient((client) => this.readings.write(client, items, alsoInTransaction), () => this.partitionsFor(items));
    return changes.length === 0 ? write() : this.inAlarmOrder(write);
  }

  writeAlarms(changes: AlarmChangeRow[]): Promise<void> {
    return this.inAlarmOrder(() => this.transaction((client) => this.alarms.writeAll(client, changes)));
  }

  /**
   * Runs a write with alarm changes after the previous one has ended (committed or failed), as
   * SQLite's single writer would: the engine made each on top of the one before, so an
   * acknowledgement committed after a later return would leave the older state stored.
   */
  private inAlarmOrder<T>(write: () => Promise<T>): Promise<T> {
    const stamp = this.alarmOrder.stamp();
    const run = this.alarmTail.then(() => {
      if (this.alarmOrder.builtOnFailure(stamp)) throw refusedAlarmWrite();
      return write().catch((err: unknown) => {
        this.alarmOrder.failed();
        throw err;
      });
    });
    this.alarmTail = run.catch(() => undefined);
    return run;
  }

  writeOutbox(entries: OutboxRow[]): Promise<number> {
    return this.transaction((client) => this.outbox.write(client, entries));
  }

  async claimOutbox(claims: OutboxClaimRow[]): Promise<void> {
    await this.transaction((client) => this.outbox.claim(client, claims));
  }

  async settleOutbox(outcomes: OutboxOutcomeRow[]): Promise<void> {
    await this.transaction((client) => this.outbox.settle(client, outcomes));
  }

  async writeGateState(row: GateStateRow): Promise<void> {
    await this.onClient((client) => writeGateState(client, row));
  }

  async writeLastSeen(rows: LastSeenRow[]): Promise<void> {
    if (rows.length > 0) await this.transaction((client) => writeLastSeen(client, rows));
  }

  async pruneExpiredSeqs(): Promise<void> {
    await this.track(this.readings.pruneExpiredSeqs(this.pool));
  }

  async forgetDevice(deviceId: string): Promise<void> {
    await this.track(this.readings.forgetDevice(this.pool, deviceId));
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.inFlight]);
  }

  /** The partitions of the days these readings fall on, made before the readings' transaction. */
  private async partitionsFor(items: ReadingRow[]): Promise<void> {
    const today = dayOf(Date.now());
    const oldest = dayOf(Date.now() - this.retentionDays * DAY_MS);
    const days = new Set<number>();
    for (const r of items) {
      const day = dayOf(r.tsMs);
      if (!this.partitions.covers(day) && day >= oldest && day <= today + 1) days.add(day);
    }
    for (const day of days) {
      // Best effort: without its own partition a reading lands in the default one, never refused.
      await this.partitions.ensure(day).catch((err: unknown) => this.log.warn({ err, day: new Date(day * DAY_MS).toISOString().slice(0, 10) }, 'making a readings partition failed; the readings go to the default partition'));
    }
  }

  /** A transaction on a client of the pool, answered after COMMIT. */
  private transaction<T>(work: (client: pg.ClientBase) => Promise<T>): Promise<T> {
    return this.onClient(async (client) => {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    });
  }

  /** Work on a client of the pool that opens and commits a transaction; on a failure it is rolled back. */
  private onClient<T>(work: (client: pg.ClientBase) => Promise<T>, before?: () => Promise<void>): Promise<T> {
    return this.statement(async () => {
      const client = await this.pool.connect();
      let result: T;
      try {
        result = await work(client);
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        // A client whose connection failed must not go back to the pool.
        client.release(isConnectionFault(err) ? (err as Error) : undefined);
        throw err;
      }
      client.release();
      return result;
    }, before);
  }

  /**
   * Runs a write (one statement, or a whole transaction) and tells the storage health. A deadlock
   * or serialization failure rolled everything back, so the write is simply made again (two
   * transactions that lock the same devices in another order: a retention run, a lastSeen flush).
   */
  private statement<T>(write: () => Promise<T>, before?: () => Promise<void>): Promise<T> {
    return this.track(
      (async () => {
        if (this.closed) throw new StorageUnavailableError('the store is closed');
        try {
          await before?.();
          for (let attempt = 1; ; attempt++) {
            try {
              const result = await write();
              this.health?.succeeded();
              return result;
            } catch (err) {
              if (attempt >= WRITE_ATTEMPTS || !RETRYABLE.has((err as { code?: string }).code ?? '')) throw err;
            }
          }
        } catch (err) {
          if (this.health?.failed(err) === null) this.log.error({ err }, 'a PostgreSQL write failed');
          throw err;
        }
      })(),
    );
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p)).catch(() => undefined);
    return p;
  }
}

/** Whether a failure broke the connection (rather than the statement). */
function isConnectionFault(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code !== 'string' || code.startsWith('08') || code.startsWith('57') || code.startsWith('E');
}
