import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  ALARM_ACK_MANY_MAX,
  ALARM_COMMENT_MAX_LENGTH,
  ALARM_STATES,
  AlarmRuleSchema,
  AlarmRuleUpdateBodySchema,
  AlarmSchema,
  AlarmStateSchema,
  DEVICE_ID_PATTERN,
  IsoDateTime,
  Page,
  SHELVE_MINUTES,
} from '@agua/shared';
import { badRequest, notFound, unprocessable } from '../../lib/errors';
import { fileAnswer, streamExport } from '../../lib/stream-export';
import { closedRange, iso, parseRange } from '../../lib/time';
import { CSV_CONTENT_TYPE } from '../../lib/csv';
import { XLSX_CONTENT_TYPE } from '../history/export-xlsx';
import { ALARMS_CSV_FILE_NAME, ALARMS_XLSX_FILE_NAME, writeAlarmsCsv, writeAlarmsXlsx } from './alarms-export';
import { decodeTimeIdCursor, encodeTimeIdCursor } from '../../lib/time-id-cursor';
import { errors, LIST_COMPRESSION, RequestTime, SESSION_SECURITY } from '../../lib/route-schemas';
import type { DevicesService } from '../devices/devices.service';
import type { AlarmRulesService } from './alarm-rules.service';
import { toAlarm } from './alarms.repository';
import { statesOf, type AlarmsService } from './alarms.service';

export interface AlarmsRoutesOptions {
  rules: AlarmRulesService;
  alarms: AlarmsService;
  devices: DevicesService;
  /** The devices of a site (404 SITE_NOT_FOUND for an unknown one): `?siteId=` (docs/sites.md). */
  siteDeviceIds(siteId: string): Promise<string[]>;
}

const SiteIdQuery = Type.String({ maxLength: 64, description: "only alarms of the site's devices (404 SITE_NOT_FOUND for an unknown site)" });

function decodeCursor(cursor: string): { raisedAtMs: number; id: string } {
  const { ms, id } = decodeTimeIdCursor(cursor);
  return { raisedAtMs: ms, id };
}
/** The range of /alarms/stats without `from`: the last 24 hours. */
const STATS_DEFAULT_SPAN_MS = 24 * 3600_000;
const Comment = Type.String({ maxLength: ALARM_COMMENT_MAX_LENGTH });
const AlarmParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const TransitionSchema = Type.Object({
  at: IsoDateTime,
  from: Type.Union([AlarmStateSchema, Type.Null()]),
  to: AlarmStateSchema,
  by: Type.Union([Type.Object({ id: Type.String(), username: Type.String(), name: Type.String() }), Type.Null()]),
  comment: Type.Union([Type.String(), Type.Null()]),
});

const RuleCountSchema = Type.Object({ deviceId: Type.String(), ruleId: Type.String(), kind: Type.String(), count: Type.Integer() });
const AlarmStatsSchema = Type.Object(
  {
    from: IsoDateTime,
    to: IsoDateTime,
    total: Type.Integer(),
    perTenMinutes: Type.Object({ max: Type.Integer(), mean: Type.Number() }),
    floods: Type.Integer({ description: '10-minute windows with more than 10 alarms' }),
    top: Type.Array(RuleCountSchema),
    chattering: Type.Array(RuleCountSchema),
    standing: Type.Integer({ description: 'alarms open more than 24 h now' }),
    meanTimeToAckS: Type.Union([Type.Number(), Type.Null()]),
  },
  { title: 'AlarmStats' },
);

/** The `comment` of an acknowledgement, whose body is optional: `{comment?}`, or nothing. */
function optionalComment(body: unknown): string | null {
  if (body === undefined || body === null) return null;
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('VALIDATION_FAILED');
  const { comment, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length > 0) throw badRequest('VALIDATION_FAILED', { field: Object.keys(rest)[0] });
  if (comment === undefined || comment === null) return null;
  if (typeof comment !== 'string' || comment.length > ALARM_COMMENT_MAX_LENGTH) throw badRequest('VALIDATION_FAILED', { field: 'comment' });
  return comment.trim() || null;
}

/** Alarms and alarm rules (docs/alarms.md "API"). */
export default async function alarmsRoutes(app: FastifyInstance, opts: AlarmsRoutesOptions) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['alarms'];
  const activeDevice = (id: string) => {
    const device = opts.devices.get(id);
    if (!device || device.retiredAtMs !== null) throw notFound('DEVICE_NOT_FOUND');
    return device;
  };

  r.get('/api/v1/devices/:id/alarm-rules', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: "A device's alarm rules",
      security: SESSION_SECURITY,
      params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
      response: { 200: Type.Array(AlarmRuleSchema), ...errors(401, 403, 404) },
    },
    handler: async (req) => opts.rules.rulesOf(activeDevice(req.params.id).id),
  });

  r.put('/api/v1/devices/:id/alarm-rules/:ruleId', {
    config: { access: 'manage_devices' },
    schema: {
      tags,
      summary: 'Edit one alarm rule (422 ALARM_RULE_INVALID for impossible values: a high setpoint at or below a low one, setpointPct and setpointM together, setpointM at or above maxLevel, deadband ≥ 50 %)',
      security: SESSION_SECURITY,
      params: Type.Object({ id: Type.String({ maxLength: 64 }), ruleId: Type.String({ maxLength: 100 }) }),
      body: AlarmRuleUpdateBodySchema,
      response: { 200: AlarmRuleSchema, ...errors(400, 401, 403, 404, 422) },
    },
    handler: async (req) => {
      const device = activeDevice(req.params.id);
      return opts.rules.update(device, req.params.ruleId, req.body, { user: req.auth!.user, ip: req.ip });
    },
  });

  const actor = (req: { auth: { user: Parameters<AlarmsService['ack']>[2]['user'] } | null; ip: string }) => ({ user: req.auth!.user, ip: req.ip });

  r.get('/api/v1/alarms', {
    compress: LIST_COMPRESSION,
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'Alarms: ?state=open → the open ones, highest priority first, then newest; otherwise a page, newest first',
      security: SESSION_SECURITY,
      querystring: Type.Object({
        state: Type.Optional(Type.Union([Type.Literal('open'), ...ALARM_STATES.map((st) => Type.Literal(st))])),
        from: Type.Optional(RequestTime('inclusive (raise time)')),
        to: Type.Optional(RequestTime('exclusive')),
        deviceId: Type.Optional(Type.String({ pattern: DEVICE_ID_PATTERN })),
        priority: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
        limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
        cursor: Type.Optional(Type.String({ maxLength: 200 })),
        siteId: Type.Optional(SiteIdQuery),
      }),
      response: { 200: Page(AlarmSchema), ...errors(400, 401, 403, 404) },
    },
    handler: async (req) => {
      const { state, from, to, deviceId, priority, limit, cursor, siteId } = req.query;
      const range = parseRange(from, to);
      const ofSite = siteId === undefined ? undefined : await opts.siteDeviceIds(siteId);
      if (state === 'open' && [from, to, deviceId, priority, cursor].every((v) => v === undefined)) {
        const open = opts.alarms.open();
        return { items: ofSite ? open.filter((a) => ofSite.includes(a.deviceId)) : open, nextCursor: null };
      }
      if (ofSite?.length === 0) return { items: [], nextCursor: null };
      const rows = await opts.alarms.page({
        ...range,
        ...(deviceId !== undefined ? { deviceId } : {}),
        ...(ofSite ? { deviceIds: ofSite } : {}),
        ...(priority !== undefined ? { priority } : {}),
        ...(state !== undefined ? { states: statesOf(state)! } : {}),
        ...(cursor !== undefined ? { after: decodeCursor(cursor) } : {}),
        limit: limit + 1,
      });
      const items = rows.slice(0, limit);
      const last = items[items.length - 1];
      return { items: items.map(toAlarm), nextCursor: rows.length > limit && last ? encodeTimeIdCursor(last.raisedAtMs, last.id) : null };
    },
  });

  r.post('/api/v1/alarms/ack', {
    config: { access: 'write' },
    schema: {
      tags,
      summary: `Acknowledge several alarms (up to ${ALARM_ACK_MANY_MAX}); those that cannot be are skipped`,
      security: SESSION_SECURITY,
      body: Type.Object({ ids: Type.Array(Type.String({ maxLength: 100 }), { minItems: 1, maxItems: ALARM_ACK_MANY_MAX }), comment: Type.Optional(Comment) }, { additionalProperties: false }),
      response: { 200: Type.Object({ acked: Type.Array(Type.String()), skipped: Type.Array(Type.String()) }), ...errors(400, 401, 403, 503) },
    },
    handler: async (req) => opts.alarms.ackMany(req.body.ids, req.body.comment ?? null, actor(req)),
  });

  r.get('/api/v1/alarms/:id', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'One alarm with its transitions',
      security: SESSION_SECURITY,
      params: AlarmParams,
      response: { 200: Type.Intersect([AlarmSchema, Type.Object({ transitions: Type.Array(TransitionSchema) })]), ...errors(401, 403, 404) },
    },
    handler: async (req) => {
      const found = await opts.alarms.get(req.params.id);
      if (!found) throw notFound('ALARM_NOT_FOUND');
      const transitions = found.transitions.map((t) => ({ at: iso(t.atMs)!, from: t.from, to: t.to, by: t.by, comment: t.comment }));
      return { ...toAlarm(found.alarm), transitions };
    },
  });

  r.post('/api/v1/alarms/:id/ack', {
    config: { access: 'write' },
    schema: {
      tags,
      summary: 'Acknowledge an alarm (409 ALARM_NOT_ACKABLE unless it waits for an acknowledgement)',
      security: SESSION_SECURITY,
      params: AlarmParams,
      body: Type.Unknown({ description: '{comment?} (up to 500 characters), or no body at all' }),
      response: { 200: AlarmSchema, ...errors(400, 401, 403, 404, 409, 503) },
    },
    handler: async (req) => opts.alarms.ack(req.params.id, optionalComment(req.body), actor(req)),
  });

  r.post('/api/v1/alarms/:id/shelve', {
    config: { access: 'write' },
    schema: {
      tags,
      summary: `Shelve an open alarm for ${SHELVE_MINUTES.min}–${SHELVE_MINUTES.max} minutes, with a comment (422 otherwise)`,
      description:
        "With ALARM_SHELVE_CRITICAL=admin, a priority-1 ('Crítica') alarm is shelved by administrators only: anyone else gets 403 SHELVE_CRITICAL_FORBIDDEN, audited as `alarm.shelved` denied. GET /api/v1/config says which rule holds.",
      security: SESSION_SECURITY,
      params: AlarmParams,
      body: Type.Object({ minutes: Type.Optional(Type.Unknown()), comment: Type.Optional(Type.Unknown()) }, { additionalProperties: false }),
      response: { 200: AlarmSchema, ...errors(400, 401, 403, 404, 409, 422, 503) },
    },
    handler: async (req) => {
      const { minutes, comment } = req.body;
      if (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < SHELVE_MINUTES.min || minutes > SHELVE_MINUTES.max) {
        throw unprocessable('INVALID_VALUE', { field: 'minutes', min: SHELVE_MINUTES.min, max: SHELVE_MINUTES.max });
      }
      if (typeof comment !== 'string' || comment.trim() === '' || comment.length > ALARM_COMMENT_MAX_LENGTH) {
        throw unprocessable('INVALID_VALUE', { field: 'comment' });
      }
      return opts.alarms.shelve(req.params.id, minutes, comment.trim(), actor(req));
    },
  });

  r.post('/api/v1/alarms/:id/unshelve', {
    config: { access: 'write' },
    schema: {
      tags,
      summary: 'End the shelving of an alarm now (409 ALARM_NOT_SHELVED if it is not shelved)',
      security: SESSION_SECURITY,
      params: AlarmParams,
      response: { 200: AlarmSchema, ...errors(401, 403, 404, 409, 503) },
    },
    handler: async (req) => opts.alarms.unshelve(req.params.id, actor(req)),
  });

  r.get('/api/v1/alarms/stats', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'ISA-18.2 figures over the alarms raised in [from, to) (default: the last 24 hours)',
      description:
        'total; perTenMinutes {max, mean} over every 10-minute window of the range, empty ones included; floods = windows with more than 10; top = the 10 most frequent rules; chattering = rules raised 3 or more times within one minute (count = most within a minute); standing = alarms open more than 24 h now; meanTimeToAckS over the acknowledged ones (null if none).',
      security: SESSION_SECURITY,
      querystring: Type.Object({
        from: Type.Optional(RequestTime('inclusive')),
        to: Type.Optional(RequestTime('exclusive; from must be before to (400 RANGE_INVALID)')),
        siteId: Type.Optional(SiteIdQuery),
      }),
      response: { 200: AlarmStatsSchema, ...errors(400, 401, 403, 404) },
    },
    handler: async (req) => {
      const range = closedRange(parseRange(req.query.from, req.query.to), STATS_DEFAULT_SPAN_MS, Date.now());
      const ofSite = req.query.siteId === undefined ? undefined : await opts.siteDeviceIds(req.query.siteId);
      return opts.alarms.stats(range, Date.now(), ofSite);
    },
  });

  const ExportQuery = Type.Object({
    from: Type.Optional(RequestTime('inclusive (raise time); absent: from the oldest alarm')),
    to: Type.Optional(RequestTime('exclusive; absent: up to the newest')),
    deviceIds: Type.Optional(Type.String({ maxLength: 4000, description: 'comma-separated device ids; absent: every device' })),
    siteId: Type.Optional(Type.String({ maxLength: 64, description: "only the site's devices (with deviceIds: those of them in the site); 404 SITE_NOT_FOUND for an unknown site" })),
  });
  const planExport = async (q: { from?: string; to?: string; deviceIds?: string; siteId?: string }) => {
    const range = parseRange(q.from, q.to);
    const knows = (id: string) => opts.devices.get(id) !== undefined;
    let ids = q.deviceIds === undefined ? undefined : [...new Set(q.deviceIds.split(',').map((id) => id.trim()).filter(Boolean))];
    if (ids?.length === 0) throw badRequest('VALIDATION_FAILED', { field: 'deviceIds' });
    if (q.siteId !== undefined) {
      const ofSite = await opts.siteDeviceIds(q.siteId);
      for (const id of ids ?? []) if (!knows(id)) throw notFound('DEVICE_NOT_FOUND');
      ids = ids ? ids.filter((id) => ofSite.includes(id)) : ofSite;
      if (ids.length === 0) throw notFound('NO_DATA');
    }
    return opts.alarms.planExport(range, ids, knows);
  };
  const deviceName = (id: string) => opts.devices.get(id)?.name ?? id;
  const exportDescription = "One sheet 'Alarmas', newest first: Fecha y Hora (raised), Dispositivo (name), Alarma, Prioridad, Estado, Valor (at raise), Reconocida por, Comentario, Normalizada (when the condition cleared). Nothing in the range: 404 NO_DATA.";

  r.get('/api/v1/export-alarms.xlsx', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: `The alarm history as ${ALARMS_XLSX_FILE_NAME}`,
      description: exportDescription,
      security: SESSION_SECURITY,
      querystring: ExportQuery,
      response: { 200: fileAnswer(XLSX_CONTENT_TYPE, ALARMS_XLSX_FILE_NAME), ...errors(400, 401, 403, 404) },
    },
    handler: async (req, reply) => {
      const batches = await planExport(req.query);
      return streamExport(req, reply, XLSX_CONTENT_TYPE, ALARMS_XLSX_FILE_NAME, (out) => writeAlarmsXlsx(out, batches, deviceName));
    },
  });

  r.get('/api/v1/export-alarms.csv', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: `The alarm history as ${ALARMS_CSV_FILE_NAME}`,
      description: `${exportDescription} UTF-8 with BOM, comma-separated, CRLF, dates ISO 8601 with the server offset.`,
      security: SESSION_SECURITY,
      querystring: ExportQuery,
      response: { 200: fileAnswer(CSV_CONTENT_TYPE, ALARMS_CSV_FILE_NAME), ...errors(400, 401, 403, 404) },
    },
    handler: async (req, reply) => {
      const batches = await planExport(req.query);
      return streamExport(req, reply, CSV_CONTENT_TYPE, ALARMS_CSV_FILE_NAME, (out) => writeAlarmsCsv(out, batches, deviceName));
    },
  });
}
