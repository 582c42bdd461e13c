import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { periodLabel, REPORT_KIND_LABELS, REPORT_LIMITS, type NotificationContent } from '@agua/shared';
import type { EventBus } from '../../lib/event-bus';
import type { Database } from '../../storage/schema';
import type { AuditService } from '../audit/audit.service';
import type { Notifications } from '../notifications/notifications.module';
import type { ReportSources } from './report-content';
import { ReportRunner, type ReportMailer } from './report-runner';
import { ReportScheduler } from './report-scheduler';
import { REPORT_CONTENT_TYPES, reportFileName } from './report-files';
import { ReportsRepository, type RunRecord } from './reports.repository';
import { ReportsService, toReportRun } from './reports.service';

export interface ReportsDeps {
  db: Kysely<Database>;
  sources: ReportSources;
  notifications: Pick<Notifications, 'service' | 'useAttachments'>;
  audit: AuditService;
  /** This instance's events: `report_run.updated` goes out on it. */
  bus: EventBus;
  deviceExists(id: string): boolean;
  userExists(id: string): Promise<boolean>;
  /** PUBLIC_URL: the e-mails' links (the screen, and files too large to attach). */
  publicUrl: string | null;
  /** No cluster: this is the only instance (runs left running at start are this server's own). */
  single: boolean;
  log: FastifyBaseLogger;
}

export interface ReportsModule {
  service: ReportsService;
  runner: ReportRunner;
  scheduler: ReportScheduler;
}

/** Reports: definitions, scheduled and on-demand runs, their archive and e-mails (docs/reports.md). */
export function createReports(d: ReportsDeps): ReportsModule {
  const repo = new ReportsRepository(d.db);
  const log = d.log.child({ component: 'reports' });
  const changed = (run: RunRecord) => d.bus.emit('report_run.updated', toReportRun(run));
  const link = (path: string) => (d.publicUrl ? new URL(path, d.publicUrl.endsWith('/') ? d.publicUrl : `${d.publicUrl}/`).toString() : null);
  const attachable = (run: RunRecord) => run.files.reduce((sum, f) => sum + f.bytes, 0) <= REPORT_LIMITS.attachMaxBytes;

  const mail: ReportMailer = async (run) => {
    const period = periodLabel(run);
    const names = run.files.map((f) => reportFileName(run.definition.name, run.from, run.to, f.format));
    const lines = [`${REPORT_KIND_LABELS[run.definition.kind]} · ${period}`];
    if (attachable(run)) lines.push(`Adjuntos: ${names.join(', ')}`);
    else {
      for (const f of run.files) lines.push(`${f.format.toUpperCase()}: ${link(`api/v1/report-runs/${run.id}/file?format=${f.format}`) ?? 'descárguelo en la pantalla Informes'}`);
    }
    const content: NotificationContent = {
      event: 'report',
      title: `Informe ${run.definition.name}: ${period}`,
      lines,
      link: link('reports'),
      priority: null,
      alarmId: null,
      deviceId: null,
      ...(attachable(run) ? { reportRunId: run.id } : {}),
    };
    await d.notifications.service.writeReportMail(run.id, run.definition.recipients, content);
  };
  d.notifications.useAttachments(async (runId) => {
    const run = await repo.findRun(runId);
    if (!run || run.status !== 'done' || !attachable(run)) return [];
    const files = await Promise.all(run.files.map((f) => repo.file(runId, f.format)));
    return files.flatMap((f) => (f ? [{ filename: reportFileName(run.definition.name, run.from, run.to, f.format), contentType: REPORT_CONTENT_TYPES[f.format], content: f.content }] : []));
  });

  const runner = new ReportRunner({ repo, sources: d.sources, mail, changed, single: d.single, log });
  const scheduler = new ReportScheduler(repo, () => runner.kick(), log);
  const service = new ReportsService({ repo, audit: d.audit, deviceExists: d.deviceExists, userExists: d.userExists, changed });
  return { service, runner, scheduler };
}
