import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ReportFormat } from '@agua/shared';
import { buildReport, type ReportSources } from './report-content';
import { reportPdf } from './report-pdf';
import { reportXlsx } from './report-xlsx';
import type { ReportsRepository, RunRecord, StoredFile } from './reports.repository';

/** Writes a done run's e-mails to the notification outbox, once per run whatever the retries. */
export type ReportMailer = (run: RunRecord) => Promise<void>;

export interface ReportRunnerDeps {
  repo: ReportsRepository;
  sources: ReportSources;
  mail: ReportMailer;
  /** A run changed (the live socket). */
  changed(run: RunRecord): void;
  log: FastifyBaseLogger;
  /** A run taken by an instance that dies is taken again this long after its last sign of life. */
  leaseMs?: number;
  /** A failed attempt is made again this long after it. */
  retryMs?: number;
  /**
   * The only instance (no cluster): runs marked running at start were this server's before it
   * stopped or died, and are taken again at once rather than after their lease.
   */
  single: boolean;
  now?: () => number;
}

/** Attempts a run gets: one more than a crash or two (a run that kills its instance each time fails then). */
export const REPORT_MAX_ATTEMPTS = 3;
export const REPORT_LEASE_MS = 30_000;
/** A failed attempt is made again after this (the database back, a hiccup over). */
export const REPORT_RETRY_MS = 60_000;
/** How often every instance looks for runs queued elsewhere or left by a dead instance. */
export const REPORT_RUNS_EVERY_MS = 2_000;

/**
 * Generates queued runs (docs/reports.md "Exactly once"), on every instance: a run is taken by
 * one atomic update (status running, a lease kept alive while it is generated), its files are
 * stored and it is marked done in one transaction, and only then are its e-mails written to the
 * outbox — under a key unique per run and recipient, so an instance killed anywhere on the way
 * means the run is generated again, never mailed twice.
 */
export class ReportRunner {
  private readonly leaseMs: number;
  private readonly retryMs: number;
  private readonly now: () => number;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(private readonly d: ReportRunnerDeps) {
    this.leaseMs = d.leaseMs ?? REPORT_LEASE_MS;
    this.retryMs = d.retryMs ?? REPORT_RETRY_MS;
    this.now = d.now ?? Date.now;
  }

  /** At start: what a previous run of this server left under way goes back in the queue (one instance). */
  async start(): Promise<void> {
    if (!this.d.single) return;
    const requeued = await this.d.repo.requeueRunning();
    if (requeued > 0) this.d.log.warn({ runs: requeued }, 'report runs interrupted by a stop are generated again');
  }

  /** Looks for waiting runs now (a run was requested here), or right after the look under way. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((err: unknown) => this.d.log.error({ err }, 'report runs failed'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** The job list's tick: the same look (runs queued elsewhere, leases run out). */
  async tick(): Promise<void> {
    this.kick();
    await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async drain(): Promise<void> {
    for (const run of await this.d.repo.unmailed()) await this.mail(run);
    while (!this.stopped) {
      const now = this.now();
      const run = await this.d.repo.claimNext(now, now + this.leaseMs);
      if (!run) return;
      if (run.attempts > REPORT_MAX_ATTEMPTS) {
        await this.d.repo.fail(run.id, run.attempts, run.error ?? `interrumpido ${run.attempts - 1} veces`, now);
        await this.announce(run.id);
        continue;
      }
      await this.announce(run.id);
      await this.generate(run);
    }
  }

  private async generate(run: RunRecord): Promise<void> {
    const started = this.now();
    // Keeps the lease while the files are made; a stalled instance loses it and another goes on.
    const keepAlive = setInterval(() => {
      void this.d.repo.extendLease(run.id, run.attempts, this.now() + this.leaseMs).catch(() => undefined);
    }, this.leaseMs / 3);
    try {
      const doc = await buildReport(this.d.sources, run.definition, run, started);
      const files: StoredFile[] = [];
      for (const format of run.definition.formats) files.push(stored(format, format === 'xlsx' ? await reportXlsx(doc) : await reportPdf(doc, started)));
      const finished = this.now();
      const mine = await this.d.repo.finish(run.id, run.attempts, files, finished, !run.send);
      if (!mine) return;
      this.d.log.info({ run: run.id, report: run.reportId, from: run.from, to: run.to, ms: finished - started, bytes: files.reduce((s, f) => s + f.bytes, 0) }, 'report generated');
      const done = await this.announce(run.id);
      if (done && run.send) await this.mail(done);
    } catch (err) {
      // Tried again a minute later (a database away comes back); the third failure is the last word.
      const message = err instanceof Error ? err.message : String(err);
      const last = run.attempts >= REPORT_MAX_ATTEMPTS;
      this.d.log.error({ err, run: run.id, attempt: run.attempts, last }, 'report generation failed');
      if (last) await this.d.repo.fail(run.id, run.attempts, message, this.now());
      else await this.d.repo.retryLater(run.id, run.attempts, message, this.now() + this.retryMs);
      await this.announce(run.id);
    } finally {
      clearInterval(keepAlive);
    }
  }

  private async mail(run: RunRecord): Promise<void> {
    try {
      await this.d.mail(run);
      await this.d.repo.markMailed(run.id);
    } catch (err) {
      // Left unmailed: the next look writes them (the outbox ignores what it has already).
      this.d.log.error({ err, run: run.id }, 'writing the report e-mails failed');
    }
  }

  private async announce(id: string): Promise<RunRecord | null> {
    const run = await this.d.repo.findRun(id);
    if (run) this.d.changed(run);
    return run;
  }
}

function stored(format: ReportFormat, content: Buffer): StoredFile {
  return { format, bytes: content.length, sha256: createHash('sha256').update(content).digest('hex'), content };
}
