import type { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { startWorker } from '../../../lib/worker-thread';
import { StorageUnavailableError, type StorageHealth } from '../../storage-health';
import type { IngestStore } from '../ingest-store';
import type { AlarmChangeRow, GateStateRow, LastSeenRow, OutboxClaimRow, OutboxOutcomeRow, OutboxRow, ReadingRow } from '../rows';
import { packReadings, transferOf, type WriterAnswers, type WriterFailure, type WriterRequest } from './writer-thread.protocol';

type Pending = { resolve: (result: unknown) => void; reject: (err: Error) => void };
/** A request as a caller makes it (the id, and what the thread was told of failed alarm writes, are added here). */
type Request = WriterRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id' | 'alarmFailuresSeen'> : never) : never;

/**
 * The ingest store on SQLite: its writers (ingest-writer.worker.ts) on a thread of its own, as the
 * server sees them: each operation answered when the thread's transaction has committed. A thread that dies
 * (a crash, an out-of-memory) fails what it had not answered with STORAGE_UNAVAILABLE — nothing
 * unanswered was acknowledged, and its transaction was never committed — and the next write
 * starts a new thread, which reloads what was committed.
 */
export class SqliteIngestStore implements IngestStore {
  /**
   * Group commits handed over while one commits: the thread merges whatever waits for it into its
   * next transaction, so it never waits for this event loop between two commits.
   */
  readonly concurrentWrites = 8;
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closing = false;
  /** Failed alarm writes the thread has reported (each thread counts from zero): the stamp of the next alarm write (AlarmWriteOrder). */
  private alarmFailuresSeen = 0;

  constructor(
    private readonly file: string,
    /** Told of every commit and failed commit: the readings are the storage's steadiest writes. */
    private readonly health: StorageHealth | null,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Stores the readings, and the alarm changes they cause, in one transaction; for each reading,
   * whether it was new (false = duplicate).
   */
  async write(items: ReadingRow[], changes: AlarmChangeRow[] = []): Promise<boolean[]> {
    try {
      const packed = packReadings(items);
      const fresh = (await this.request({ op: 'write', packed, changes }, transferOf(packed))) as boolean[];
      this.health?.succeeded();
      return fresh;
    } catch (err) {
      this.health?.failed(err);
      throw err;
    }
  }

  /** Stores a batch of alarm changes in one transaction (the alarm engine's store). */
  async writeAlarms(changes: AlarmChangeRow[]): Promise<void> {
    try {
      await this.request({ op: 'alarms', changes });
      this.health?.succeeded();
    } catch (err) {
      this.health?.failed(err);
      throw err;
    }
  }

  /** Writes notifications (escalations, tests); how many were new (a cause written twice adds none). */
  async writeOutbox(entries: OutboxRow[]): Promise<number> {
    return (await this.request({ op: 'outboxWrite', entries })) as number;
  }

  /** Counts the attempts about to be made; due again at retryAtMs should they never end. */
  async claimOutbox(claims: OutboxClaimRow[]): Promise<void> {
    await this.request({ op: 'outboxClaim', claims });
  }

  /** Stores the outcome of attempts (sent, to retry, given up). */
  async settleOutbox(outcomes: OutboxOutcomeRow[]): Promise<void> {
    await this.request({ op: 'outboxSettle', outcomes });
  }

  /** Forgets seqs whose 24 h window has passed, in memory and on disk. */
  async pruneExpiredSeqs(nowMs = Date.now()): Promise<void> {
    await this.request({ op: 'pruneExpiredSeqs', nowMs });
  }

  async writeGateState(row: GateStateRow): Promise<void> {
    await this.request({ op: 'gateState', row });
  }

  async writeLastSeen(rows: LastSeenRow[]): Promise<void> {
    await this.request({ op: 'lastSeen', rows });
  }

  /** Forgets a device's seqs (its history was purged). */
  async forgetDevice(deviceId: string): Promise<void> {
    await this.request({ op: 'forgetDevice', deviceId });
  }

  /** Runs a PRAGMA on the thread's own connection (per-connection settings, e.g. max_page_count). */
  pragma(statement: string): Promise<unknown> {
    return this.request({ op: 'pragma', statement });
  }

  /** Waits for what was asked, closes the connection (checkpointing the WAL) and ends the thread. */
  async close(): Promise<void> {
    this.closing = true;
    if (!this.worker) return;
    const worker = this.worker;
    await this.request({ op: 'close' }).catch((err: unknown) => this.log.error({ err }, 'closing the readings writer failed'));
    await worker.terminate();
  }

  /** Ends the thread at once, as a crash would (what it had not answered fails). */
  async kill(): Promise<void> {
    await this.worker?.terminate();
  }

  /** `transfer`: buffers of the request that move to the thread (no longer usable here). */
  private request(req: Request, transfer: ArrayBuffer[] = []): Promise<unknown> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ ...req, id, alarmFailuresSeen: this.alarmFailuresSeen }, transfer);
    });
  }

  private start(): Worker {
    if (this.closing) throw new StorageUnavailableError('the readings writer is closed');
    const worker = startWorker(import.meta.url, 'ingest-writer.worker', { file: this.file });
    worker.on('message', (answers: WriterAnswers) => this.answered(answers));
    worker.on('error', (err) => this.log.error({ err }, 'the readings writer thread failed'));
    worker.on('exit', (code) => this.exited(worker, code));
    this.worker = worker;
    this.alarmFailuresSeen = 0;
    return worker;
  }

  private answered({ responses, alarmFailures }: WriterAnswers): void {
    this.alarmFailuresSeen = alarmFailures;
    for (const res of responses) {
      const p = this.pending.get(res.id);
      if (!p) continue;
      this.pending.delete(res.id);
      if (res.ok) p.resolve(res.result);
      else p.reject(toError(res.error));
    }
  }

  private exited(worker: Worker, code: number): void {
    if (this.worker !== worker) return;
    this.worker = null;
    if (this.pending.size === 0 && this.closing) return;
    if (!this.closing) this.log.error({ code, unanswered: this.pending.size }, 'the readings writer thread ended; the next write starts a new one');
    const err = new StorageUnavailableError('the readings writer thread ended');
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}

/** A failure of the thread as an Error carrying its SQLite code again. */
function toError(f: WriterFailure): Error {
  if (f.code === 'STORAGE_UNAVAILABLE') return new StorageUnavailableError(f.message);
  return Object.assign(new Error(f.message), f.code !== undefined ? { code: f.code } : {});
}
