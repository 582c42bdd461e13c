import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { DEVICE_ID_PATTERN, OverflowEventPatchSchema, OverflowEventSchema, OverflowStatsSchema, Page } from '@agua/shared';
import { badRequest } from '../../lib/errors';
import { decodeTimeIdCursor, encodeTimeIdCursor } from '../../lib/time-id-cursor';
import { errors, LIST_COMPRESSION, RequestTime, SESSION_SECURITY } from '../../lib/route-schemas';
import { parseRange } from '../../lib/time';
import type { OverflowPosition, OverflowQuery } from './overflow-events.repository';
import { toOverflowEvent, type OverflowEventsService } from './overflow-events.service';

export interface OverflowRoutesOptions {
  overflows: OverflowEventsService;
}

function decodeCursor(cursor: string): OverflowPosition {
  const { ms, id } = decodeTimeIdCursor(cursor);
  return { startedAtMs: ms, id };
}

const RangeQuery = {
  deviceId: Type.Optional(Type.String({ pattern: DEVICE_ID_PATTERN })),
  from: Type.Optional(RequestTime('inclusive (start of the event)')),
  to: Type.Optional(RequestTime('exclusive')),
};

/** Device and start range of a query; no range: every event. */
function queryOf(q: { deviceId?: string; from?: string; to?: string }): OverflowQuery {
  const range = parseRange(q.from, q.to);
  if (range.fromMs !== undefined && range.toMs !== undefined && range.fromMs >= range.toMs) throw badRequest('RANGE_INVALID');
  return {
    ...(q.deviceId !== undefined ? { deviceIds: [q.deviceId] } : {}),
    ...(range.fromMs !== undefined ? { fromMs: range.fromMs } : {}),
    ...(range.toMs !== undefined ? { toMs: range.toMs } : {}),
  };
}

/** Overflow events (spills) of level sensors with a crest (docs/water.md "Overflow events"). */
export default async function overflowRoutes(app: FastifyInstance, opts: OverflowRoutesOptions) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['overflows'];
  const { overflows } = opts;

  r.get('/api/v1/overflow-events', {
    compress: LIST_COMPRESSION,
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'Overflow events started in the range (default: all), newest first, as a page',
      security: SESSION_SECURITY,
      querystring: Type.Object({
        ...RangeQuery,
        limit: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
        cursor: Type.Optional(Type.String({ maxLength: 200 })),
      }),
      response: { 200: Page(OverflowEventSchema), ...errors(400, 401, 403) },
    },
    handler: async (req) => {
      const { limit, cursor } = req.query;
      const rows = await overflows.page(queryOf(req.query), limit + 1, cursor === undefined ? undefined : decodeCursor(cursor));
      const items = rows.slice(0, limit);
      const last = items.at(-1);
      return { items: items.map(toOverflowEvent), nextCursor: rows.length > limit && last ? encodeTimeIdCursor(last.startedAtMs, last.id) : null };
    },
  });

  r.get('/api/v1/overflow-events/stats', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'Counts of the events started in the range (default: all): events, spills by the 12/24 rule (per device, summed), total duration, total volume (null if no event has one)',
      security: SESSION_SECURITY,
      querystring: Type.Object(RangeQuery),
      response: { 200: OverflowStatsSchema, ...errors(400, 401, 403) },
    },
    handler: async (req) => overflows.stats(queryOf(req.query)),
  });

  r.get('/api/v1/overflow-events/:id', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'One overflow event (404 OVERFLOW_EVENT_NOT_FOUND)',
      security: SESSION_SECURITY,
      params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
      response: { 200: OverflowEventSchema, ...errors(400, 401, 403, 404) },
    },
    handler: async (req) => toOverflowEvent(await overflows.get(req.params.id)),
  });

  r.patch('/api/v1/overflow-events/:id', {
    config: { access: 'write' },
    schema: {
      tags,
      summary: "What people record of an event: cause (≤ 200), notes (≤ 2,000), notifiedAt (when the regulator was told; a future time 422 NOTIFIED_AT_IN_FUTURE); null or blank clears. Audited overflow.updated {fields}",
      security: SESSION_SECURITY,
      params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
      body: OverflowEventPatchSchema,
      response: { 200: OverflowEventSchema, ...errors(400, 401, 403, 404, 422) },
    },
    handler: async (req) => toOverflowEvent(await overflows.annotate(req.params.id, req.body, { user: req.auth!.user, ip: req.ip })),
  });
}
