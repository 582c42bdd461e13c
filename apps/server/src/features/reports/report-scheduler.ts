import type { FastifyBaseLogger } from 'fastify';
import { newId } from '../../lib/ids';
import { duePeriods } from './report-periods';
import type { ReportsRepository } from './reports.repository';

/** How often the leader looks for scheduled runs due. */
export const REPORT_SCHEDULE_EVERY_MS = 10_000;

/**
 * Queues the scheduled runs that are due (docs/reports.md "Schedule"), on the leader: for each
 * enabled definition with a schedule, every period whose time has come since it was created or
 * enabled — up to the newest 7, oldest first, which is how periods missed while the server was
 * off are caught up. A run's schedule key is unique, so a period already queued (by this or a
 * former leader, before a restart) is not queued again.
 */
export class ReportScheduler {
  constructor(
    private readonly repo: ReportsRepository,
    private readonly queued: () => void,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number = Date.now,
  ) {}

  async tick(): Promise<number> {
    const now = this.now();
    let added = 0;
    for (const report of await this.repo.listReports()) {
      if (!report.enabled || report.schedule === null) continue;
      const due = duePeriods(report.kind, report.schedule, report.enabledAtMs, now);
      for (const [i, { period }] of due.entries()) {
        const fresh = await this.repo.insertRun({
          id: newId('rrn'),
          reportId: report.id,
          definition: report,
          ...period,
          requestedBy: null,
          send: true,
          scheduleKey: `${report.id}:${period.from}:${period.to}`,
          // A millisecond apart, oldest period first: runs are taken and listed in that order.
          createdAtMs: now - due.length + 1 + i,
        });
        if (fresh) {
          added++;
          this.log.info({ report: report.id, from: period.from, to: period.to }, 'scheduled report queued');
        }
      }
    }
    if (added > 0) this.queued();
    return added;
  }
}
