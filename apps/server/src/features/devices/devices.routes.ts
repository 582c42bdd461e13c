import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { DeviceSchema } from '@agua/shared';
import { errors, SESSION_SECURITY } from '../../lib/route-schemas';
import type { DevicesService } from './devices.service';

/** Reading the device list (API.md "Signed in"). */
export default async function devicesRoutes(app: FastifyInstance, opts: { devices: DevicesService }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get('/api/v1/devices', {
    config: { access: 'read' },
    schema: {
      tags: ['devices'],
      summary: 'Every device with its live state and current reading',
      security: SESSION_SECURITY,
      querystring: Type.Object({ include: Type.Optional(Type.Literal('retired')) }),
      response: { 200: Type.Array(DeviceSchema), ...errors(400, 401, 403) },
    },
    handler: async (req) => opts.devices.list(req.query.include === 'retired'),
  });
}
