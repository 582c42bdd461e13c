import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/errors';
import type { AlarmChange } from './alarms.repository';

/** Where alarm changes are stored: a batch in one transaction (the storage's writer thread). */
export interface AlarmChangeStore {
  writeAll(changes: AlarmChange[]): Promise<void>;
}

/** Alarm changes per transaction, about: a flood's batches stay short (each change may carry several notifications). */
const MAX_CHANGES_PER_TRANSACTION = 100;

/** Work waiting for the next batch, and how to tell its caller. */
interface Job {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; err: unknown };

/** What a batch does around its write: plan its notices, announce it once stored, recover when it was not. */
export interface BatchHooks {
  store: AlarmChangeStore;
  planNotices: (changes: AlarmChange[]) => void;
  announce: (changes: AlarmChange[]) => void;
  /** The write failed: every caller of the batch has been given the error; memory goes back in step with the storage. */
  recover: () => Promise<void>;
  log: FastifyBaseLogger;
}

/**
 * The engine's one queue (docs/decisions/009-alarm-engine.md): work runs one job at a time, in
 * arrival order; the changes it stages are stored together — an fsync per batch, not per
 * transition — and only then announced and answered. Whatever arrives while a batch is being
 * stored runs in the next one.
 */
export class AlarmBatcher {
  private pending: Job[] = [];
  private staged: AlarmChange[] = [];
  /** A drain is scheduled or running: later work joins its next batch. */
  private draining = false;
  private drained: Promise<void> = Promise.resolve();

  constructor(private readonly hooks: BatchHooks) {}

  /** A change made by the work running now, stored with its batch. */
  stage(change: AlarmChange): void {
    this.staged.push(change);
  }

  /** Where the staged changes end now: `takeSince` returns what was staged after it. */
  mark(): number {
    return this.staged.length;
  }

  takeSince(mark: number): AlarmChange[] {
    return this.staged.splice(mark);
  }

  /** Runs `work` in its turn; resolves once its changes are stored (and announced). */
  submit<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve: resolve as (v: unknown) => void, reject });
      if (this.draining) return;
      this.draining = true;
      // After the current turn's synchronous work: everything submitted in it forms one batch.
      queueMicrotask(() => (this.drained = this.drain()));
    });
  }

  /** Work not started yet is refused (the storage failed under it). */
  rejectPending(err: unknown): void {
    this.pending.splice(0).forEach((job) => job.reject(err));
  }

  /** Resolves when the batch under way is done. */
  idle(): Promise<void> {
    return this.drained;
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending.length > 0) await this.runBatch();
    } finally {
      this.draining = false;
    }
  }

  private async runBatch(): Promise<void> {
    // Jobs in order until the batch holds enough changes: a flood is stored in several short
    // transactions, between which the writer commits the readings waiting for it.
    const jobs: Job[] = [];
    const outcomes: Outcome[] = [];
    while (this.pending.length > 0 && this.staged.length < MAX_CHANGES_PER_TRANSACTION) {
      const job = this.pending.shift()!;
      jobs.push(job);
      try {
        outcomes.push({ ok: true, value: job.work() });
      } catch (err) {
        outcomes.push({ ok: false, err });
      }
    }
    const staged = this.staged;
    this.staged = [];
    try {
      if (staged.length > 0) {
        this.hooks.planNotices(staged);
        await this.hooks.store.writeAll(staged);
      }
    } catch (err) {
      this.hooks.log.error({ err, changes: staged.length }, 'storing alarm changes failed; reloading alarms from the storage');
      for (const job of jobs) job.reject(err);
      await this.hooks.recover();
      return;
    }
    this.hooks.announce(staged);
    jobs.forEach((job, i) => this.answer(job, outcomes[i]!));
  }

  private answer(job: Job, outcome: Outcome): void {
    if (outcome.ok) return job.resolve(outcome.value);
    if (!(outcome.err instanceof AppError)) this.hooks.log.error({ err: outcome.err }, 'alarm evaluation failed');
    job.reject(outcome.err);
  }
}
