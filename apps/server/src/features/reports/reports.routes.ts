import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { REPORT_LIMITS, ReportFormatSchema, ReportInputSchema, ReportRunPageSchema, ReportRunRequestSchema, ReportRunSchema, ReportSchema } from '@agua/shared';
import { decodeTimeIdCursor, encodeTimeIdCursor } from '../../lib/time-id-cursor';
import { errors, SESSION_SECURITY } from '../../lib/route-schemas';
import { fileAnswer } from '../../lib/stream-export';
import { REPORT_CONTENT_TYPES, reportFileName } from './report-files';
import type { RunPosition } from './reports.repository';
import { toReport, toReportRun, type ReportsService } from './reports.service';

export interface ReportRoutesOptions {
  reports: ReportsService;
  /** A run was requested here: the runner looks at once. */
  requested: () => void;
}


function decodeCursor(cursor: string): RunPosition {
  const { ms, id } = decodeTimeIdCursor(cursor);
  return { createdAtMs: ms, id };
}

const Id = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** Report definitions, runs and their files (docs/reports.md). */
export default async function reportRoutes(app: FastifyInstance, opts: ReportRoutesOptions) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['reports'];
  const { reports } = opts;
  const actor = (req: FastifyRequest) => ({ user: req.auth!.user, ip: req.ip });

  r.get('/api/v1/reports', {
    config: { access: 'read' },
    schema: { tags, summary: 'Report definitions, by name', security: SESSION_SECURITY, response: { 200: Type.Object({ items: Type.Array(ReportSchema) }), ...errors(401, 403) } },
    handler: async () => ({ items: (await reports.list()).map(toReport) }),
  });

  r.get('/api/v1/reports/:id', {
    config: { access: 'read' },
    schema: { tags, summary: 'One report definition (404 REPORT_NOT_FOUND)', security: SESSION_SECURITY, params: Id, response: { 200: ReportSchema, ...errors(401, 403, 404) } },
    handler: async (req) => toReport(await reports.get(req.params.id)),
  });

  r.post('/api/v1/reports', {
    config: { access: 'manage_devices' },
    schema: {
      tags,
      summary: 'Defines a report',
      description:
        'Schedule by kind: daily `{time}`, weekly `{time, weekday}`, monthly and overflows `{time, dayOfMonth}` (else 422 REPORT_SCHEDULE_INVALID); deviceIds must exist (422 DEVICE_NOT_FOUND); recipients are user ids or e-mail addresses (422 REPORT_RECIPIENT_UNKNOWN). Audited `report.created`.',
      security: SESSION_SECURITY,
      body: ReportInputSchema,
      response: { 201: ReportSchema, ...errors(400, 401, 403, 422) },
    },
    handler: async (req, reply) => reply.status(201).send(toReport(await reports.create(req.body, actor(req)))),
  });

  r.put('/api/v1/reports/:id', {
    config: { access: 'manage_devices' },
    schema: {
      tags,
      summary: 'Replaces a report definition (its runs keep the definition they were made with). Audited `report.updated`.',
      security: SESSION_SECURITY,
      params: Id,
      body: ReportInputSchema,
      response: { 200: ReportSchema, ...errors(400, 401, 403, 404, 422) },
    },
    handler: async (req) => toReport(await reports.update(req.params.id, req.body, actor(req))),
  });

  r.delete('/api/v1/reports/:id', {
    config: { access: 'manage_devices' },
    schema: { tags, summary: 'Deletes a report definition; its runs and files stay. Audited `report.deleted`.', security: SESSION_SECURITY, params: Id, response: { 204: Type.Null(), ...errors(401, 403, 404) } },
    handler: async (req, reply) => {
      await reports.remove(req.params.id, actor(req));
      return reply.status(204).send(null);
    },
  });

  r.post('/api/v1/reports/:id/runs', {
    config: { access: 'write' },
    schema: {
      tags,
      summary: "'Generar ahora': queues a run for a period",
      description: `from and to are local dates YYYY-MM-DD, both included, at most ${REPORT_LIMITS.periodDaysMax} days (400 PERIOD_TOO_LONG), not starting in the future (400 PERIOD_IN_FUTURE); absent: the last complete period of the kind. \`send: true\` e-mails it to the recipients when done. With ${REPORT_LIMITS.queueMax} runs already waiting or under way: 429 REPORT_QUEUE_FULL with Retry-After.`,
      security: SESSION_SECURITY,
      params: Id,
      body: Type.Optional(ReportRunRequestSchema),
      response: { 202: ReportRunSchema, ...errors(400, 401, 403, 404, 429) },
    },
    handler: async (req, reply) => {
      const run = await reports.requestRun(req.params.id, req.body ?? {}, actor(req));
      opts.requested();
      return reply.status(202).send(toReportRun(run));
    },
  });

  r.get('/api/v1/report-runs', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'Report runs, newest first, as a page',
      security: SESSION_SECURITY,
      querystring: Type.Object({
        reportId: Type.Optional(Type.String({ maxLength: 64 })),
        limit: Type.Integer({ minimum: 1, maximum: REPORT_LIMITS.pageMax, default: 50 }),
        cursor: Type.Optional(Type.String({ maxLength: 200 })),
      }),
      response: { 200: ReportRunPageSchema, ...errors(400, 401, 403) },
    },
    handler: async (req) => {
      const { reportId, limit, cursor } = req.query;
      const { items, more } = await reports.runs({ reportId, limit, after: cursor === undefined ? undefined : decodeCursor(cursor) });
      const last = items.at(-1);
      return { items: items.map(toReportRun), nextCursor: more && last ? encodeTimeIdCursor(last.createdAtMs, last.id) : null };
    },
  });

  r.get('/api/v1/report-runs/:id', {
    config: { access: 'read' },
    schema: { tags, summary: 'One report run (404 REPORT_RUN_NOT_FOUND)', security: SESSION_SECURITY, params: Id, response: { 200: ReportRunSchema, ...errors(401, 403, 404) } },
    handler: async (req) => toReportRun(await reports.run(req.params.id)),
  });

  r.get('/api/v1/report-runs/:id/file', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: "A done run's file",
      description: '409 REPORT_NOT_READY until the run is done; 404 REPORT_FORMAT_NOT_GENERATED for a format the run did not make. The X-Content-SHA256 header carries the archived hash.',
      security: SESSION_SECURITY,
      params: Id,
      querystring: Type.Object({ format: ReportFormatSchema }),
      response: { 200: fileAnswer(`${REPORT_CONTENT_TYPES.xlsx} or ${REPORT_CONTENT_TYPES.pdf}`, 'the file'), ...errors(400, 401, 403, 404, 409) },
    },
    handler: async (req, reply) => {
      const { format } = req.query;
      const { run, file } = await reports.file(req.params.id, format);
      return reply
        .header('content-type', REPORT_CONTENT_TYPES[format])
        .header('content-disposition', `attachment; filename="${reportFileName(run.definition.name, run.from, run.to, format)}"`)
        .header('cache-control', 'no-store')
        .header('x-content-sha256', file.sha256)
        .send(file.content);
    },
  });
}
