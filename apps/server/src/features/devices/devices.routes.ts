import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { DEVICE_ID_PATTERN, DeviceSchema, DeviceTypeSchema, GateStateSchema, WaterTypeSchema } from '@agua/shared';
import { errors, SESSION_SECURITY } from '../../lib/route-schemas';
import type { DeviceAdminService } from './device-admin.service';
import type { DevicesService } from './devices.service';

// The `config` of a Device as GET returns it is valid input too, so a client may send it back as is.
const ConfigInput = Type.Object(
  {
    maxLevel: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1000 })),
    unit: Type.Optional(Type.Literal('m', { description: 'Level sensors measure in metres; the only value accepted, and nothing to store.' })),
    warningPct: Type.Optional(Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 100 })),
    criticalPct: Type.Optional(Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 100 })),
    offlineAfterS: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400 })),
    travelTimeoutS: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600 })),
    state: Type.Optional(
      Type.Union([GateStateSchema, Type.Null()], {
        description: "A gate's state as GET shows it: accepted and ignored. The state only ever comes from the device; no API call changes it.",
      }),
    ),
  },
  { additionalProperties: false, description: 'Settings to change; the `config` a GET returned may be sent back unchanged.' },
);
const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const Location = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
const Params = Type.Object({ id: Type.String({ maxLength: 64 }) });

export interface DevicesRoutesOptions {
  devices: DevicesService;
  admin: DeviceAdminService;
}

/** The device list, and its administration with manage_devices (API.md). */
export default async function devicesRoutes(app: FastifyInstance, opts: DevicesRoutesOptions) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['devices'];
  const actor = (req: { auth: { user: Parameters<DeviceAdminService['create']>[1]['user'] } | null; ip: string }) => ({ user: req.auth!.user, ip: req.ip });

  r.get('/api/v1/devices', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'Every device with its live state and current reading',
      security: SESSION_SECURITY,
      querystring: Type.Object({ include: Type.Optional(Type.Literal('retired')) }),
      response: { 200: Type.Array(DeviceSchema), ...errors(400, 401, 403) },
    },
    handler: async (req) => opts.devices.list(req.query.include === 'retired'),
  });

  r.post('/api/v1/devices', {
    config: { access: 'manage_devices' },
    schema: {
      tags,
      summary: 'Register a device; the answer holds its API key, shown only this once',
      security: SESSION_SECURITY,
      body: Type.Object({
        id: Type.String({ pattern: DEVICE_ID_PATTERN }),
        name: Name,
        location: Location,
        type: DeviceTypeSchema,
        waterType: Type.Optional(Type.Union([WaterTypeSchema, Type.Null()])),
        config: Type.Optional(ConfigInput),
      }),
      response: { 201: Type.Object({ device: DeviceSchema, apiKey: Type.String() }), ...errors(400, 401, 403, 409, 422) },
    },
    handler: async (req, reply) => {
      const { device, apiKey } = await opts.admin.create(req.body, actor(req));
      return reply.status(201).send({ device: opts.devices.getApi(device.id)!, apiKey });
    },
  });

  r.patch('/api/v1/devices/:id', {
    config: { access: 'manage_devices' },
    schema: {
      tags,
      summary: "Edit a device; enabled:false is 'Desconectar', enabled:true 'Conectar'",
      security: SESSION_SECURITY,
      params: Params,
      body: Type.Object(
        {
          enabled: Type.Optional(Type.Boolean()),
          name: Type.Optional(Name),
          location: Type.Optional(Location),
          waterType: Type.Optional(Type.Union([WaterTypeSchema, Type.Null()])),
          config: Type.Optional(ConfigInput),
        },
        { additionalProperties: false },
      ),
      response: { 200: DeviceSchema, ...errors(400, 401, 403, 404, 422) },
    },
    handler: async (req) => {
      const device = await opts.admin.patch(req.params.id, req.body, actor(req));
      return opts.devices.getApi(device.id)!;
    },
  });

  r.post('/api/v1/devices/:id/key', {
    config: { access: 'manage_devices' },
    schema: {
      tags,
      summary: 'Rotate the API key: the old one stops working at once',
      security: SESSION_SECURITY,
      params: Params,
      response: { 200: Type.Object({ apiKey: Type.String() }), ...errors(401, 403, 404) },
    },
    handler: async (req) => ({ apiKey: await opts.admin.rotateKey(req.params.id, actor(req)) }),
  });

  r.delete('/api/v1/devices/:id', {
    config: { access: 'manage_devices' },
    schema: {
      tags,
      summary: 'Retire a device (history kept); ?purge=true also deletes its history',
      security: SESSION_SECURITY,
      params: Params,
      querystring: Type.Object({ purge: Type.Optional(Type.Boolean()) }),
      response: { 204: Type.Null(), ...errors(400, 401, 403, 404) },
    },
    handler: async (req, reply) => {
      await opts.admin.remove(req.params.id, req.query.purge === true, actor(req));
      return reply.status(204).send(null);
    },
  });
}
