import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { MAX_BODY_BYTES } from '@agua/shared';
import { AppError } from '../../lib/errors';
import { DEVICE_SECURITY, errors } from '../../lib/route-schemas';
import type { DeviceRecord } from '../devices/devices.repository';
import type { DeviceRateLimiter } from './rate-limiter';
import type { TelemetryService } from './telemetry.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The device a key-authenticated request comes from. */
    device: DeviceRecord | null;
  }
}

/** The key of a device request: X-API-Key, or Authorization: Bearer. */
export function deviceKeyOf(req: FastifyRequest): string | undefined {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header.length > 0) return header;
  const auth = req.headers.authorization;
  if (auth && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, '').trim();
  return undefined;
}

/** Checks 1 and 2 of PROTOCOL.md for any device route: the key, then the device's rate. */
export function authorizeDevice(req: FastifyRequest, telemetry: TelemetryService, limiter: DeviceRateLimiter): DeviceRecord {
  const device = telemetry.authenticate(deviceKeyOf(req));
  const waitMs = limiter.take(device.id);
  if (waitMs > 0) throw new AppError(429, 'RATE_LIMITED', undefined, { 'retry-after': String(Math.ceil(waitMs / 1000)) });
  return device;
}

export interface TelemetryRoutesOptions {
  telemetry: TelemetryService;
  limiter: DeviceRateLimiter;
  /** Commands waiting for the device, handed out with the answer (PROTOCOL.md "HTTP"). */
  pendingCommands: (deviceId: string) => Promise<unknown[]>;
}

/** POST /api/v1/telemetry with the checks of PROTOCOL.md in their order. */
export default async function telemetryRoutes(app: FastifyInstance, opts: TelemetryRoutesOptions) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post('/api/v1/telemetry', {
    config: { access: 'device' },
    bodyLimit: MAX_BODY_BYTES,
    schema: {
      tags: ['devices (protocol)'],
      summary: 'A device reports one reading or a batch of up to 500 (PROTOCOL.md)',
      security: DEVICE_SECURITY,
      body: Type.Unknown({ description: 'One message or an array of up to 500; validated in the order of PROTOCOL.md' }),
      response: {
        202: Type.Object({ accepted: Type.Integer(), duplicates: Type.Integer(), commands: Type.Array(Type.Unknown()) }),
        ...errors(400, 401, 403, 413, 415, 422, 429),
      },
    },
    // 1. key, 2. rate — before the body is read.
    onRequest: async (req) => {
      req.device = authorizeDevice(req, opts.telemetry, opts.limiter);
    },
    // 3. size, then content type — before parsing, so a text body is never parsed.
    preParsing: async (req, _reply, payload) => {
      const length = req.headers['content-length'];
      if (Number(length ?? 0) > MAX_BODY_BYTES) throw new AppError(413, 'PAYLOAD_TOO_LARGE');
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json') {
        // Without a length (chunked) the size is only known by reading, at most one byte past the limit.
        if (length === undefined && (await exceedsLimit(payload))) throw new AppError(413, 'PAYLOAD_TOO_LARGE');
        throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE');
      }
      return payload;
    },
    handler: async (req, reply) => {
      const result = await opts.telemetry.ingest(req.device!, req.body);
      const commands = await opts.pendingCommands(req.device!.id);
      return reply.status(202).send({ ...result, commands });
    },
  });
}

/** Reads a body only until it is known to be over MAX_BODY_BYTES. */
async function exceedsLimit(body: AsyncIterable<Buffer | string>): Promise<boolean> {
  let total = 0;
  for await (const chunk of body) {
    total += chunk.length;
    if (total > MAX_BODY_BYTES) return true;
  }
  return false;
}
