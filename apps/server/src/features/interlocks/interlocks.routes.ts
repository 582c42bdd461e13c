import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  acceptsCommand,
  DEVICE_COMMANDS,
  InterlockBypassInputSchema,
  InterlockCreateSchema,
  InterlockPatchSchema,
  InterlockSchema,
  PermissivesSchema,
  type DeviceType,
  type Permissives,
} from '@agua/shared';
import { notFound, unprocessable } from '../../lib/errors';
import { errors, SESSION_SECURITY } from '../../lib/route-schemas';
import type { InterlocksService } from './interlocks.service';

export interface InterlockRoutesOptions {
  interlocks: InterlocksService;
  /** A device's type, retired ones excluded (a permissive check is for a command that could go). */
  typeOf(deviceId: string): DeviceType | undefined;
}

const Id = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** Interlocks and the permissive check before a command (docs/control.md "Interlocks"). */
export default async function interlockRoutes(app: FastifyInstance, opts: InterlockRoutesOptions) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['interlocks'];
  const { interlocks } = opts;
  const actor = (req: FastifyRequest) => ({ user: req.auth!.user, ip: req.ip });

  r.get('/api/v1/interlocks', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: "Interlocks (all, or one device's), by device and command",
      security: SESSION_SECURITY,
      querystring: Type.Object({ deviceId: Type.Optional(Type.String({ maxLength: 64 })) }),
      response: { 200: Type.Array(InterlockSchema), ...errors(400, 401, 403, 404) },
    },
    handler: async (req) => interlocks.list(req.query.deviceId),
  });

  r.get('/api/v1/interlocks/:id', {
    config: { access: 'read' },
    schema: { tags, summary: 'One interlock (404 INTERLOCK_NOT_FOUND)', security: SESSION_SECURITY, params: Id, response: { 200: InterlockSchema, ...errors(401, 403, 404) } },
    handler: async (req) => interlocks.get(req.params.id),
  });

  r.post('/api/v1/interlocks', {
    config: { access: 'manage_devices' },
    schema: {
      tags,
      summary: 'Defines an interlock',
      description:
        'Bad values (unknown or retired device, `detener`, a command the device does not take, a condition kind not for its device, both or neither of valueM/pct, name 1–100, 1–10 conditions) answer 422 INTERLOCK_INVALID `{field, reason}`. Audited `interlock.created`.',
      security: SESSION_SECURITY,
      body: InterlockCreateSchema,
      response: { 201: InterlockSchema, ...errors(400, 401, 403, 422) },
    },
    handler: async (req, reply) => reply.status(201).send(await interlocks.create(req.body, actor(req))),
  });

  r.patch('/api/v1/interlocks/:id', {
    config: { access: 'manage_devices' },
    schema: {
      tags,
      summary: 'Changes an interlock made on `version` (another one: 409 VERSION_CONFLICT)',
      security: SESSION_SECURITY,
      params: Id,
      body: InterlockPatchSchema,
      response: { 200: InterlockSchema, ...errors(400, 401, 403, 404, 409, 422) },
    },
    handler: async (req) => interlocks.update(req.params.id, req.body, actor(req)),
  });

  r.delete('/api/v1/interlocks/:id', {
    config: { access: 'manage_devices' },
    schema: { tags, summary: 'Removes an interlock', security: SESSION_SECURITY, params: Id, response: { 204: Type.Null(), ...errors(401, 403, 404) } },
    handler: async (req, reply) => {
      await interlocks.remove(req.params.id, actor(req));
      return reply.status(204).send(null);
    },
  });

  r.post('/api/v1/interlocks/:id/bypass', {
    config: { access: 'manage_devices' },
    schema: {
      tags,
      summary: 'Bypasses an interlock for 1–720 minutes, with a comment (again: replaces); it ends by itself',
      security: SESSION_SECURITY,
      params: Id,
      body: InterlockBypassInputSchema,
      response: { 200: InterlockSchema, ...errors(400, 401, 403, 404, 409, 422) },
    },
    handler: async (req) => interlocks.bypass(req.params.id, req.body.minutes, req.body.comment, actor(req)),
  });

  r.delete('/api/v1/interlocks/:id/bypass', {
    config: { access: 'manage_devices' },
    schema: { tags, summary: "Ends an interlock's bypass now", security: SESSION_SECURITY, params: Id, response: { 200: InterlockSchema, ...errors(401, 403, 404, 409) } },
    handler: async (req) => interlocks.endBypass(req.params.id, actor(req)),
  });

  r.get('/api/v1/devices/:id/permissives', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'What a command would meet now: allowed (false only for block), what it requires, the reasons',
      description: 'The server judges again when the command is sent, whatever this answered.',
      security: SESSION_SECURITY,
      params: Id,
      querystring: Type.Object({ command: Type.String({ minLength: 1, maxLength: 32 }) }),
      response: { 200: PermissivesSchema, ...errors(400, 401, 403, 404, 422) },
    },
    handler: async (req): Promise<Permissives> => {
      const type = opts.typeOf(req.params.id);
      if (!type) throw notFound('DEVICE_NOT_FOUND');
      const { command } = req.query;
      if (!acceptsCommand(type, command)) throw unprocessable('COMMAND_INVALID', { allowed: DEVICE_COMMANDS[type] });
      const v = await interlocks.verdict(req.params.id, command);
      return { deviceId: req.params.id, command, allowed: v.allowed, mode: v.mode, requires: v.requires, reasons: v.reasons, bypassed: v.bypassed };
    },
  });
}
