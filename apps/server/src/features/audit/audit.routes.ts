import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { IsoDateTime, Page } from '@agua/shared';
import { CSV_CONTENT_TYPE } from '../../lib/csv';
import { notFound } from '../../lib/errors';
import { errors, LIST_COMPRESSION, RequestTime, SESSION_SECURITY } from '../../lib/route-schemas';
import { fileAnswer, streamExport } from '../../lib/stream-export';
import { iso, parseRange } from '../../lib/time';
import { AUDIT_CSV_FILE_NAME, auditBatches, writeAuditCsv } from './audit-export';
import { AUDIT_ACTIONS } from './audit.repository';
import type { AuditService } from './audit.service';

const AuditEventSchema = Type.Object(
  {
    id: Type.String(),
    at: IsoDateTime,
    action: Type.String(),
    userId: Type.Union([Type.String(), Type.Null()]),
    username: Type.Union([Type.String(), Type.Null()]),
    target: Type.Union([Type.String(), Type.Null()]),
    result: Type.Union([Type.Literal('ok'), Type.Literal('denied'), Type.Literal('failed')]),
    ip: Type.Union([Type.String(), Type.Null()]),
    details: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  },
  { title: 'AuditEvent' },
);

/** The audit trail, read-only, for administrators (docs/api.md). */
export default async function auditRoutes(app: FastifyInstance, opts: { audit: AuditService }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const Filters = {
    from: Type.Optional(RequestTime('inclusive')),
    to: Type.Optional(RequestTime('exclusive; from must be before to (400 RANGE_INVALID)')),
    userId: Type.Optional(Type.String({ maxLength: 100 })),
    deviceId: Type.Optional(Type.String({ maxLength: 64 })),
    action: Type.Optional(Type.Union(AUDIT_ACTIONS.map((a) => Type.Literal(a)))),
  };
  const filtersOf = (q: { from?: string; to?: string; userId?: string; deviceId?: string; action?: string }) => ({
    ...parseRange(q.from, q.to),
    ...(q.userId ? { userId: q.userId } : {}),
    ...(q.deviceId ? { deviceId: q.deviceId } : {}),
    ...(q.action ? { action: q.action } : {}),
  });

  r.get('/api/v1/audit', {
    compress: LIST_COMPRESSION,
    config: { access: 'admin' },
    schema: {
      tags: ['audit'],
      summary: 'A page of audit events, newest first',
      security: SESSION_SECURITY,
      querystring: Type.Object({
        ...Filters,
        limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }),
        cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$' })),
      }),
      response: { 200: Page(AuditEventSchema), ...errors(400, 401, 403) },
    },
    handler: async (req) => {
      const q = req.query;
      const rows = await opts.audit.page({
        ...filtersOf(q),
        limit: q.limit + 1,
        ...(q.cursor ? { beforeId: Number(q.cursor) } : {}),
      });
      const items = rows.slice(0, q.limit);
      const last = items[items.length - 1];
      return {
        items: items.map((e) => ({
          id: String(e.id),
          at: iso(e.atMs),
          action: e.action,
          userId: e.userId,
          username: e.username,
          target: e.target,
          result: e.result,
          ip: e.ip,
          details: e.details ?? null,
        })),
        nextCursor: rows.length > q.limit && last ? String(last.id) : null,
      };
    },
  });

  r.get('/api/v1/export-audit.csv', {
    config: { access: 'admin' },
    schema: {
      tags: ['audit'],
      summary: `The audit events of the filter as ${AUDIT_CSV_FILE_NAME}, newest first`,
      description:
        "Columns Fecha y Hora (ISO 8601 with the server's offset), Acción (the action's code), Resultado (Correcto, Denegado, Fallido), Usuario, Objetivo, Dirección IP, Detalles (JSON). UTF-8 with BOM, comma-separated, CRLF; text that a spreadsheet would run as a formula starts with '. Nothing matches: 404 NO_DATA. Streamed.",
      security: SESSION_SECURITY,
      querystring: Type.Object(Filters),
      response: { 200: fileAnswer(CSV_CONTENT_TYPE, AUDIT_CSV_FILE_NAME), ...errors(400, 401, 403, 404) },
    },
    handler: async (req, reply) => {
      const filters = filtersOf(req.query);
      if ((await opts.audit.page({ ...filters, limit: 1 })).length === 0) throw notFound('NO_DATA');
      return streamExport(req, reply, CSV_CONTENT_TYPE, AUDIT_CSV_FILE_NAME, (out) => writeAuditCsv(out, auditBatches(opts.audit, filters)));
    },
  });
}
