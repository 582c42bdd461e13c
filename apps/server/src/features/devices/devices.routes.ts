import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CreateDeviceBodySchema, DeviceSchema, UpdateDeviceBodySchema } from '@agua/shared';
import { notFound } from '../../lib/errors';
import { errors, LIST_COMPRESSION, SESSION_SECURITY } from '../../lib/route-schemas';
import type { DeviceAdminService } from './device-admin.service';
import type { DevicesService } from './devices.service';

const Params = Type.Object({ id: Type.String({ maxLength: 64 }) });
/** `?include=retired`: retired devices too (any other value 400). */
const IncludeQuery = Type.Object({ include: Type.Optional(Type.Literal('retired')) });
const SiteId = Type.String({ maxLength: 64, description: "only the site's devices (404 SITE_NOT_FOUND for an unknown site)" });

export interface DevicesRoutesOptions {
  devices: DevicesService;
  admin: DeviceAdminService;
  /** The devices of a site (404 SITE_NOT_FOUND for an unknown one): the list's `?siteId=`. */
  siteDeviceIds(siteId: string): Promise<string[]>;
}

/** The device list, and its administration with manage_devices (docs/api.md). */
export default async function devicesRoutes(app: FastifyInstance, opts: DevicesRoutesOptions) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['devices'];
  const actor = (req: { auth: { user: Parameters<DeviceAdminService['create']>[1]['user'] } | null; ip: string }) => ({ user: req.auth!.user, ip: req.ip });

  r.get('/api/v1/devices', {
    compress: LIST_COMPRESSION,
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'Every device with its live state and current reading',
      security: SESSION_SECURITY,
      querystring: Type.Object({ ...IncludeQuery.properties, siteId: Type.Optional(SiteId) }),
      response: { 200: Type.Array(DeviceSchema), ...errors(400, 401, 403, 404) },
    },
    handler: async (req) => {
      const all = opts.devices.list(req.query.include === 'retired');
      if (req.query.siteId === undefined) return all;
      const ids = new Set(await opts.siteDeviceIds(req.query.siteId));
      return all.filter((d) => ids.has(d.id));
    },
  });

  r.get('/api/v1/devices/:id', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'One device, as in the list; a retired one only with ?include=retired (404 DEVICE_NOT_FOUND otherwise)',
      security: SESSION_SECURITY,
      params: Params,
      querystring: IncludeQuery,
      response: { 200: DeviceSchema, ...errors(400, 401, 403, 404) },
    },
    handler: async (req) => {
      // The list's rule: retired devices are shown only to whoever asks for them.
      const device = opts.devices.get(req.params.id);
      if (!device || (device.retiredAtMs !== null && req.query.include !== 'retired')) throw notFound('DEVICE_NOT_FOUND');
      return opts.devices.getApi(device.id)!;
    },
  });

  r.post('/api/v1/devices', {
    config: { access: 'manage_devices' },
    schema: {
      tags,
      summary: 'Register a device; the answer holds its API key, shown only this once',
      security: SESSION_SECURITY,
      body: CreateDeviceBodySchema,
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
      description: '`siteId` (a site, or null for none) moves it between sites: an unknown site is 422 SITE_INVALID `{field: "siteId"}`; audited `device.site_changed`.',
      security: SESSION_SECURITY,
      params: Params,
      body: UpdateDeviceBodySchema,
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
