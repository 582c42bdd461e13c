import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Page, ScheduleCreateSchema, SchedulePatchSchema, SchedulePreviewSchema, ScheduleRunSchema, ScheduleSchema } from '@agua/shared';
import { decodeTimeIdCursor, encodeTimeIdCursor } from '../../lib/time-id-cursor';
import { errors, SESSION_SECURITY } from '../../lib/route-schemas';
import { toScheduleRun } from './schedules.repository';
import type { SchedulesService } from './schedules.service';

export interface ScheduleRoutesOptions {
  schedules: SchedulesService;
}

const Id = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** Gate schedules, their preview and their runs (docs/control.md "Schedules"). */
export default async function scheduleRoutes(app: FastifyInstance, opts: ScheduleRoutesOptions) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['schedules'];
  const { schedules } = opts;
  const actor = (req: FastifyRequest) => ({ user: req.auth!.user, ip: req.ip });

  r.get('/api/v1/schedules', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: "Gate schedules (all, or one gate's)",
      security: SESSION_SECURITY,
      querystring: Type.Object({ deviceId: Type.Optional(Type.String({ maxLength: 64 })) }),
      response: { 200: Type.Array(ScheduleSchema), ...errors(400, 401, 403, 404) },
    },
    handler: async (req) => schedules.list(req.query.deviceId),
  });

  r.get('/api/v1/schedules/:id', {
    config: { access: 'read' },
    schema: { tags, summary: 'One schedule (404 SCHEDULE_NOT_FOUND)', security: SESSION_SECURITY, params: Id, response: { 200: ScheduleSchema, ...errors(401, 403, 404) } },
    handler: async (req) => schedules.get(req.params.id),
  });

  r.post('/api/v1/schedules', {
    config: { access: 'manage_devices' },
    schema: {
      tags,
      summary: "Defines a gate's schedule",
      description:
        "Gates only; `action` abrir or cerrar; `time` HH:MM local (the server's TZ); `days` ISO weekdays 1–7; `durationMin` 1–1440, abrir only (then it closes); `name` default 'Abrir 06:00'; `alarmPriority` 1–4, default 3. Bad values 422 SCHEDULE_INVALID `{field, reason}`. Audited `schedule.created`.",
      security: SESSION_SECURITY,
      body: ScheduleCreateSchema,
      response: { 201: ScheduleSchema, ...errors(400, 401, 403, 422) },
    },
    handler: async (req, reply) => reply.status(201).send(await schedules.create(req.body, actor(req))),
  });

  r.patch('/api/v1/schedules/:id', {
    config: { access: 'manage_devices' },
    schema: {
      tags,
      summary: 'Changes a schedule (disabling it cancels a planned close-after)',
      security: SESSION_SECURITY,
      params: Id,
      body: SchedulePatchSchema,
      response: { 200: ScheduleSchema, ...errors(400, 401, 403, 404, 422) },
    },
    handler: async (req) => schedules.update(req.params.id, req.body, actor(req)),
  });

  r.delete('/api/v1/schedules/:id', {
    config: { access: 'manage_devices' },
    schema: { tags, summary: 'Removes a schedule (its planned close-after is cancelled)', security: SESSION_SECURITY, params: Id, response: { 204: Type.Null(), ...errors(401, 403, 404) } },
    handler: async (req, reply) => {
      await schedules.remove(req.params.id, actor(req));
      return reply.status(204).send(null);
    },
  });

  r.get('/api/v1/schedules/:id/preview', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'The next 10 runs, as they would meet the interlocks now (any failed mode: not allowed)',
      security: SESSION_SECURITY,
      params: Id,
      response: { 200: SchedulePreviewSchema, ...errors(401, 403, 404) },
    },
    handler: async (req) => schedules.preview(req.params.id),
  });

  r.get('/api/v1/schedules/:id/runs', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: "A schedule's runs, newest planned first, as a page",
      security: SESSION_SECURITY,
      params: Id,
      querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }), cursor: Type.Optional(Type.String({ maxLength: 200 })) }),
      response: { 200: Page(ScheduleRunSchema), ...errors(400, 401, 403, 404) },
    },
    handler: async (req) => {
      const { limit, cursor } = req.query;
      const rows = await schedules.runs(req.params.id, limit + 1, cursor ? decodeTimeIdCursor(cursor) : undefined);
      const items = rows.slice(0, limit);
      const last = items[items.length - 1];
      return { items: items.map(toScheduleRun), nextCursor: rows.length > limit && last ? encodeTimeIdCursor(last.plannedAtMs, last.id) : null };
    },
  });
}
