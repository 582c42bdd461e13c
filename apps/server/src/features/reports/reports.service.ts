import { isEmailAddress, REPORT_LIMITS, type Report, type ReportInput, type ReportRun, type ReportRunRequest } from '@agua/shared';
import { AppError, conflict, notFound, unprocessable } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { iso } from '../../lib/time';
import type { AuditService } from '../audit/audit.service';
import type { UserRecord } from '../users/users.repository';
import { requestedPeriod } from './report-periods';
import type { ReportRecord, ReportsRepository, RunPosition, RunRecord, StoredFile } from './reports.repository';

export interface Actor {
  user: UserRecord;
  ip: string;
}

export interface ReportsServiceDeps {
  repo: ReportsRepository;
  audit: AuditService;
  /** Whether a device exists (retired ones too: a report of the past may name them). */
  deviceExists(id: string): boolean;
  /** Whether a user exists. */
  userExists(id: string): Promise<boolean>;
  /** A run changed: the live socket and the runner hear of it. */
  changed(run: RunRecord): void;
  now?: () => number;
}

export function toReport(r: ReportRecord): Report {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind,
    deviceIds: r.deviceIds,
    formats: r.formats,
    recipients: r.recipients,
    schedule: r.schedule,
    enabled: r.enabled,
    createdAt: iso(r.createdAtMs),
  };
}

export function toReportRun(r: RunRecord): ReportRun {
  return {
    id: r.id,
    reportId: r.reportId,
    reportName: r.definition.name,
    kind: r.definition.kind,
    from: r.from,
    to: r.to,
    status: r.status,
    files: r.files.map((f) => ({ format: f.format, bytes: f.bytes, sha256: f.sha256 })),
    error: r.error,
    requestedBy: r.requestedBy,
    send: r.send,
    createdAt: iso(r.createdAtMs),
    finishedAt: iso(r.finishedAtMs),
  };
}

/** Report definitions and on-demand runs: the routes' one door (docs/reports.md). */
export class ReportsService {
  private readonly now: () => number;

  constructor(private readonly d: ReportsServiceDeps) {
    this.now = d.now ?? Date.now;
  }

  list(): Promise<ReportRecord[]> {
    return this.d.repo.listReports();
  }

  async get(id: string): Promise<ReportRecord> {
    const report = await this.d.repo.findReport(id);
    if (!report) throw notFound('REPORT_NOT_FOUND');
    return report;
  }

  async create(input: ReportInput, actor: Actor): Promise<ReportRecord> {
    const now = this.now();
    const fields = await this.checked(input);
    const report: ReportRecord = { id: newId('rpt'), ...fields, createdAtMs: now, enabledAtMs: now, updatedAtMs: now };
    await this.d.repo.insertReport(report);
    await this.record('report.created', report, actor);
    return report;
  }

  async update(id: string, input: ReportInput, actor: Actor): Promise<ReportRecord> {
    const before = await this.get(id);
    const now = this.now();
    const fields = await this.checked(input);
    // Enabling again starts the schedule afresh: no catching up on the periods it was paused for.
    const enabledAtMs = fields.enabled && !before.enabled ? now : before.enabledAtMs;
    const report: ReportRecord = { ...before, ...fields, enabledAtMs, updatedAtMs: now };
    await this.d.repo.updateReport(report);
    await this.record('report.updated', report, actor);
    return report;
  }

  async remove(id: string, actor: Actor): Promise<void> {
    const report = await this.get(id);
    if (!(await this.d.repo.deleteReport(id))) throw notFound('REPORT_NOT_FOUND');
    await this.record('report.deleted', report, actor);
  }

  /** 'Generar ahora': a run of the definition for a period, queued for the runner. */
  async requestRun(id: string, request: ReportRunRequest, actor: Actor): Promise<RunRecord> {
    const report = await this.get(id);
    const period = requestedPeriod(report.kind, request, this.now());
    // Reports are heavy work, done one at a time per instance: a queue that long is a person or a
    // script asking faster than they can be made, not a need.
    if ((await this.d.repo.pendingCount()) >= REPORT_LIMITS.queueMax) throw new AppError(429, 'REPORT_QUEUE_FULL', undefined, { 'retry-after': '30' });
    const run = {
      id: newId('rrn'),
      reportId: report.id,
      definition: report,
      ...period,
      requestedBy: { id: actor.user.id, username: actor.user.username, name: actor.user.name },
      send: request.send ?? false,
      scheduleKey: null,
      createdAtMs: this.now(),
    };
    await this.d.repo.insertRun(run);
    const stored = (await this.d.repo.findRun(run.id))!;
    this.d.changed(stored);
    return stored;
  }

  /** A page of runs, newest first; `limit` + 1 read to tell whether there is more. */
  async runs(q: { reportId?: string; limit: number; after?: RunPosition }): Promise<{ items: RunRecord[]; more: boolean }> {
    const items = await this.d.repo.pageRuns({ ...q, limit: q.limit + 1 });
    return { items: items.slice(0, q.limit), more: items.length > q.limit };
  }

  async run(id: string): Promise<RunRecord> {
    const run = await this.d.repo.findRun(id);
    if (!run) throw notFound('REPORT_RUN_NOT_FOUND');
    return run;
  }

  /** A done run's file: 409 REPORT_NOT_READY before. */
  async file(id: string, format: 'xlsx' | 'pdf'): Promise<{ run: RunRecord; file: StoredFile }> {
    const run = await this.run(id);
    if (run.status !== 'done') throw conflict('REPORT_NOT_READY', { status: run.status });
    const file = await this.d.repo.file(id, format);
    if (!file) throw notFound('REPORT_FORMAT_NOT_GENERATED');
    return { run, file };
  }

  /** The definition's fields made sure of: 422 for what cannot be (docs/reports.md "Definitions"). */
  private async checked(input: ReportInput): Promise<Pick<ReportRecord, 'name' | 'kind' | 'deviceIds' | 'formats' | 'recipients' | 'schedule' | 'enabled'>> {
    const name = input.name.trim();
    if (name === '') throw unprocessable('INVALID_VALUE', { field: 'name', message: 'a name is required' });
    const schedule = input.schedule ?? null;
    if (schedule) {
      const fits =
        input.kind === 'daily'
          ? schedule.weekday === undefined && schedule.dayOfMonth === undefined
          : input.kind === 'weekly'
            ? schedule.weekday !== undefined && schedule.dayOfMonth === undefined
            : schedule.dayOfMonth !== undefined && schedule.weekday === undefined;
      if (!fits) throw unprocessable('REPORT_SCHEDULE_INVALID', { field: 'schedule' });
    }
    const deviceIds = input.deviceIds ?? null;
    for (const deviceId of deviceIds ?? []) {
      if (!this.d.deviceExists(deviceId)) throw unprocessable('DEVICE_NOT_FOUND', { field: 'deviceIds', deviceId });
    }
    const recipients = (input.recipients ?? []).map((r) => r.trim());
    for (const recipient of recipients) {
      if (!isEmailAddress(recipient) && !(await this.d.userExists(recipient))) throw unprocessable('REPORT_RECIPIENT_UNKNOWN', { field: 'recipients', recipient });
    }
    return { name, kind: input.kind, deviceIds, formats: [...input.formats], recipients: [...new Set(recipients)], schedule, enabled: input.enabled ?? true };
  }

  private record(action: 'report.created' | 'report.updated' | 'report.deleted', report: ReportRecord, actor: Actor) {
    return this.d.audit.record({
      action,
      userId: actor.user.id,
      username: actor.user.username,
      target: `report:${report.id}`,
      result: 'ok',
      ip: actor.ip,
      details: { name: report.name, kind: report.kind, schedule: report.schedule, enabled: report.enabled, recipients: report.recipients.length },
    });
  }
}
