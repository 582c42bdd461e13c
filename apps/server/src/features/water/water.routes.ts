import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { DeviceGeometrySchema, GeometryBodySchema } from '@agua/shared';
import { errors, SESSION_SECURITY } from '../../lib/route-schemas';
import type { GeometryService } from './geometry.service';

export interface WaterRoutesOptions {
  geometry: GeometryService;
}

const DeviceParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** Geometry and calibration of level sensors (docs/water.md). */
export default async function waterRoutes(app: FastifyInstance, opts: WaterRoutesOptions) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['water'];

  r.get('/api/v1/devices/:id/geometry', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: "A level sensor's geometry and calibration: the current version and every version, newest first (never configured: version 0 with the defaults)",
      security: SESSION_SECURITY,
      params: DeviceParams,
      response: { 200: DeviceGeometrySchema, ...errors(400, 401, 403, 404) },
    },
    handler: async (req) => opts.geometry.get(req.params.id),
  });

  r.put('/api/v1/devices/:id/geometry', {
    config: { access: 'manage_devices' },
    schema: {
      tags,
      summary: 'A new version of the geometry (fields left out take their defaults; version, validFrom, by and versions are ignored, so a GET can be sent back). 422 GEOMETRY_INVALID names the field and the reason.',
      security: SESSION_SECURITY,
      params: DeviceParams,
      body: GeometryBodySchema,
      response: { 200: DeviceGeometrySchema, ...errors(400, 401, 403, 404, 409, 422) },
    },
    handler: async (req) => opts.geometry.put(req.params.id, req.body, { user: req.auth!.user, ip: req.ip }),
  });
}
