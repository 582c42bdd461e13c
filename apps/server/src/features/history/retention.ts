import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { ReadingsRepository } from './readings.repository';

/**
 * How an engine removes readings older than a time (PostgreSQL drops whole day partitions);
 * resolves with how many went.
 */
export type PruneBefore = (cutoffMs: number) => Promise<number>;

export interface RetentionOptions {
  /** The engine's own way; without it, chunked deletes per device through the repository (SQLite). */
  pruneBefore?: PruneBefore;
  /** RETENTION_DAYS: readings older than this many days are deleted. */
  retentionDays: number;
  log: FastifyBaseLogger;
  /** Rows per DELETE: small, so that ingest (same SQLite connection) never waits long. */
  chunkSize?: number;
}

/** When the job list runs retention: shortly after start, then every hour. */
export const RETENTION_FIRST_AFTER_MS = 10_000;
export const RETENTION_EVERY_MS = 3600 * 1000;

const DAY_MS = 24 * 3600 * 1000;

/**
 * Retention (docs/operations.md RETENTION_DAYS): deletes readings older than now - retentionDays,
 * in chunks with the event loop running between them. The job list runs it (RETENTION_* above).
 */
export class ReadingsRetention {
  private running: Promise<number> | null = null;
  private stopped = false;

  constructor(
    private readonly repo: ReadingsRepository,
    private readonly opts: RetentionOptions,
  ) {}

  /** Runs may go to the end again (after `interrupt`). */
  start(): void {
    this.stopped = false;
  }

  /** A run in progress ends after its current chunk. */
  interrupt(): void {
    this.stopped = true;
  }

  /** Deletes what is past retention now; resolves with the number of readings deleted. */
  runOnce(nowMs = Date.now()): Promise<number> {
    this.running ??= this.prune(nowMs - this.opts.retentionDays * DAY_MS).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async prune(cutoffMs: number): Promise<number> {
    const total = await (this.opts.pruneBefore ?? ((before: number) => this.deleteInChunks(before)))(cutoffMs);
    if (total > 0) this.opts.log.info({ deleted: total, before: new Date(cutoffMs).toISOString() }, 'readings past retention deleted');
    return total;
  }

  private async deleteInChunks(cutoffMs: number): Promise<number> {
    const chunk = this.opts.chunkSize ?? 5000;
    let total = 0;
    for (const deviceId of await this.repo.deviceIds()) {
      for (;;) {
        const deleted = await this.repo.deleteOlderThan(deviceId, cutoffMs, chunk);
        total += deleted;
        await nextTurn();
        if (deleted < chunk || this.stopped) break;
      }
      if (this.stopped) break;
    }
    return total;
  }
}
