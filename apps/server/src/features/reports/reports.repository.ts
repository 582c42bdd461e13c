import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { ReportFormat, ReportKind, ReportRunStatus, ReportSchedule } from '@agua/shared';
import type { Database, ReportDefinitionsTable, ReportRunsTable } from '../../storage/schema';

/** A report definition as the server keeps it (docs/reports.md). */
export interface ReportRecord {
  id: string;
  name: string;
  kind: ReportKind;
  /** null: every device. */
  deviceIds: string[] | null;
  formats: ReportFormat[];
  /** User ids and e-mail addresses. */
  recipients: string[];
  schedule: ReportSchedule | null;
  enabled: boolean;
  createdAtMs: number;
  enabledAtMs: number;
  updatedAtMs: number;
}

export interface Person {
  id: string;
  username: string;
  name: string;
}

export interface FileInfo {
  format: ReportFormat;
  bytes: number;
  sha256: string;
}

export interface StoredFile extends FileInfo {
  content: Buffer;
}

export interface RunRecord {
  id: string;
  reportId: string;
  /** The definition as it was when the run was made. */
  definition: ReportRecord;
  from: string;
  to: string;
  status: ReportRunStatus;
  error: string | null;
  requestedBy: Person | null;
  send: boolean;
  scheduleKey: string | null;
  attempts: number;
  leaseUntilMs: number | null;
  mailed: boolean;
  createdAtMs: number;
  finishedAtMs: number | null;
  files: FileInfo[];
}

/** Newest first: strictly after this (created, id). */
export interface RunPosition {
  createdAtMs: number;
  id: string;
}

const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

function toReport(r: Selectable<ReportDefinitionsTable>): ReportRecord {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind as ReportKind,
    deviceIds: r.device_ids_json === null ? null : (JSON.parse(r.device_ids_json) as string[]),
    formats: JSON.parse(r.formats_json) as ReportFormat[],
    recipients: JSON.parse(r.recipients_json) as string[],
    schedule: r.schedule_json === null ? null : (JSON.parse(r.schedule_json) as ReportSchedule),
    enabled: Number(r.enabled) === 1,
    createdAtMs: Number(r.created_at_ms),
    enabledAtMs: Number(r.enabled_at_ms),
    updatedAtMs: Number(r.updated_at_ms),
  };
}

function reportRow(r: ReportRecord): ReportDefinitionsTable {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind,
    device_ids_json: r.deviceIds === null ? null : JSON.stringify(r.deviceIds),
    formats_json: JSON.stringify(r.formats),
    recipients_json: JSON.stringify(r.recipients),
    schedule_json: r.schedule === null ? null : JSON.stringify(r.schedule),
    enabled: r.enabled ? 1 : 0,
    created_at_ms: r.createdAtMs,
    enabled_at_ms: r.enabledAtMs,
    updated_at_ms: r.updatedAtMs,
  };
}

function toRun(r: Selectable<ReportRunsTable>, files: FileInfo[]): RunRecord {
  return {
    id: r.id,
    reportId: r.report_id,
    definition: JSON.parse(r.definition_json) as ReportRecord,
    from: r.from_date,
    to: r.to_date,
    status: r.status as ReportRunStatus,
    error: r.error,
    requestedBy: r.requested_by_json === null ? null : (JSON.parse(r.requested_by_json) as Person),
    send: Number(r.send) === 1,
    scheduleKey: r.schedule_key,
    attempts: Number(r.attempts),
    leaseUntilMs: num(r.lease_until_ms),
    mailed: Number(r.mailed) === 1,
    createdAtMs: Number(r.created_at_ms),
    finishedAtMs: num(r.finished_at_ms),
    files,
  };
}

/** A run to store: queued, nothing generated yet. */
export type NewRun = Pick<RunRecord, 'id' | 'reportId' | 'definition' | 'from' | 'to' | 'requestedBy' | 'send' | 'scheduleKey' | 'createdAtMs'>;

/** Report definitions, runs and their files (both engines: plain Kysely). */
export class ReportsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async listReports(): Promise<ReportRecord[]> {
    return (await this.db.selectFrom('report_definitions').selectAll().orderBy('name').orderBy('id').execute()).map(toReport);
  }

  async findReport(id: string): Promise<ReportRecord | null> {
    const row = await this.db.selectFrom('report_definitions').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toReport(row) : null;
  }

  async insertReport(r: ReportRecord): Promise<void> {
    await this.db.insertInto('report_definitions').values(reportRow(r)).execute();
  }

  async updateReport(r: ReportRecord): Promise<void> {
    const { id, ...rest } = reportRow(r);
    await this.db.updateTable('report_definitions').set(rest).where('id', '=', id).execute();
  }

  async deleteReport(id: string): Promise<boolean> {
    const res = await this.db.deleteFrom('report_definitions').where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /** Stores a queued run; false when a scheduled run of that (report, period) exists already. */
  async insertRun(run: NewRun): Promise<boolean> {
    const res = await this.db
      .insertInto('report_runs')
      .values({
        id: run.id,
        report_id: run.reportId,
        definition_json: JSON.stringify(run.definition),
        from_date: run.from,
        to_date: run.to,
        status: 'queued',
        error: null,
        requested_by_json: run.requestedBy ? JSON.stringify(run.requestedBy) : null,
        send: run.send ? 1 : 0,
        schedule_key: run.scheduleKey,
        attempts: 0,
        lease_until_ms: null,
        mailed: 0,
        created_at_ms: run.createdAtMs,
        finished_at_ms: null,
      })
      .onConflict((oc) => oc.column('schedule_key').doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async findRun(id: string): Promise<RunRecord | null> {
    const row = await this.db.selectFrom('report_runs').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return null;
    return toRun(row, (await this.fileInfos([id])).get(id) ?? []);
  }

  async pageRuns(q: { reportId?: string; limit: number; after?: RunPosition }): Promise<RunRecord[]> {
    const rows = await this.db
      .selectFrom('report_runs')
      .selectAll()
      .$if(q.reportId !== undefined, (qb) => qb.where('report_id', '=', q.reportId!))
      .$if(q.after !== undefined, (qb) =>
        qb.where((eb) => eb.or([eb('created_at_ms', '<', q.after!.createdAtMs), eb.and([eb('created_at_ms', '=', q.after!.createdAtMs), eb('id', '<', q.after!.id)])])),
      )
      .orderBy('created_at_ms', 'desc')
      .orderBy('id', 'desc')
      .limit(q.limit)
      .execute();
    const files = await this.fileInfos(rows.map((r) => r.id));
    return rows.map((r) => toRun(r, files.get(r.id) ?? []));
  }

  /**
   * Takes the oldest run waiting — queued, or running on an instance whose lease ran out (it
   * died) — for this instance: status running, one more attempt, leased until `leaseUntilMs`.
   * One statement, its condition checked again on the row it updates, so two instances never
   * take the same run.
   */
  async claimNext(nowMs: number, leaseUntilMs: number): Promise<RunRecord | null> {
    const waiting = (eb: ExpressionBuilder<Database, 'report_runs'>) =>
      eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'running'), eb('lease_until_ms', '<', nowMs)])]);
    const row = await this.db
      .updateTable('report_runs')
      .set((eb) => ({ status: 'running', attempts: eb('attempts', '+', 1), lease_until_ms: leaseUntilMs }))
      .where('id', '=', (eb) => eb.selectFrom('report_runs').select('id').where(waiting).orderBy('created_at_ms').orderBy('id').limit(1))
      .where(waiting)
      .returningAll()
      .executeTakeFirst();
    return row ? toRun(row, []) : null;
  }

  /** Runs queued or being generated. */
  async pendingCount(): Promise<number> {
    const row = await this.db.selectFrom('report_runs').select((eb) => eb.fn.countAll<number>().as('n')).where('status', 'in', ['queued', 'running']).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Puts back in the queue every run marked running (one instance, at start: whoever ran them is gone). */
  async requeueRunning(): Promise<number> {
    const res = await this.db.updateTable('report_runs').set({ status: 'queued', lease_until_ms: null }).where('status', '=', 'running').executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  /** Keeps a run leased while it is generated; false when it is no longer this attempt's. */
  async extendLease(id: string, attempt: number, leaseUntilMs: number): Promise<boolean> {
    const res = await this.db.updateTable('report_runs').set({ lease_until_ms: leaseUntilMs }).where('id', '=', id).where('attempts', '=', attempt).where('status', '=', 'running').executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /**
   * Stores a run's files and marks it done, in one transaction, if it is still this attempt's
   * (another instance may have taken it over after a stalled lease): false otherwise, nothing stored.
   */
  async finish(id: string, attempt: number, files: StoredFile[], finishedAtMs: number, mailed: boolean): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      // The write first: SQLite takes the write lock now, not on a later statement.
      const res = await tx
        .updateTable('report_runs')
        .set({ status: 'done', error: null, lease_until_ms: null, finished_at_ms: finishedAtMs, mailed: mailed ? 1 : 0 })
        .where('id', '=', id)
        .where('attempts', '=', attempt)
        .where('status', '=', 'running')
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) return false;
      await tx.deleteFrom('report_files').where('run_id', '=', id).execute();
      if (files.length > 0) {
        await tx
          .insertInto('report_files')
          .values(files.map((f) => ({ run_id: id, format: f.format, bytes: f.bytes, sha256: f.sha256, content: f.content })))
          .execute();
      }
      return true;
    });
  }

  /**
   * An attempt that failed (the database away, an error while generating): the run stays taken
   * until `retryAtMs`, when any instance takes it again like one whose instance died; the error
   * is kept for the run's last word. Only this attempt's.
   */
  async retryLater(id: string, attempt: number, error: string, retryAtMs: number): Promise<void> {
    await this.db
      .updateTable('report_runs')
      .set({ error: error.slice(0, 500), lease_until_ms: retryAtMs })
      .where('id', '=', id)
      .where('attempts', '=', attempt)
      .where('status', '=', 'running')
      .execute();
  }

  /** Marks a run failed (an error that a retry would repeat, or too many interrupted attempts). */
  async fail(id: string, attempt: number | null, error: string, finishedAtMs: number): Promise<void> {
    await this.db
      .updateTable('report_runs')
      .set({ status: 'failed', error: error.slice(0, 500), lease_until_ms: null, finished_at_ms: finishedAtMs })
      .where('id', '=', id)
      .$if(attempt !== null, (qb) => qb.where('attempts', '=', attempt!))
      .execute();
  }

  /** Done runs whose e-mails are still to be written to the outbox (an instance died in between). */
  async unmailed(): Promise<RunRecord[]> {
    const rows = await this.db.selectFrom('report_runs').selectAll().where('status', '=', 'done').where('send', '=', 1).where('mailed', '=', 0).limit(50).execute();
    const files = await this.fileInfos(rows.map((r) => r.id));
    return rows.map((r) => toRun(r, files.get(r.id) ?? []));
  }

  async markMailed(id: string): Promise<void> {
    await this.db.updateTable('report_runs').set({ mailed: 1 }).where('id', '=', id).execute();
  }

  async file(runId: string, format: ReportFormat): Promise<StoredFile | null> {
    const row = await this.db.selectFrom('report_files').selectAll().where('run_id', '=', runId).where('format', '=', format).executeTakeFirst();
    return row ? { format: row.format as ReportFormat, bytes: Number(row.bytes), sha256: row.sha256, content: Buffer.from(row.content) } : null;
  }

  private async fileInfos(runIds: string[]): Promise<Map<string, FileInfo[]>> {
    const byRun = new Map<string, FileInfo[]>();
    if (runIds.length === 0) return byRun;
    const rows = await this.db.selectFrom('report_files').select(['run_id', 'format', 'bytes', 'sha256']).where('run_id', 'in', runIds).orderBy('format', 'desc').execute();
    for (const r of rows) {
      const list = byRun.get(r.run_id) ?? [];
      list.push({ format: r.format as ReportFormat, bytes: Number(r.bytes), sha256: r.sha256 });
      byRun.set(r.run_id, list);
    }
    return byRun;
  }
}
