import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { MAX_BODY_BYTES } from '@agua/shared';
import { AppError, badRequest } from '../../lib/errors';
import { DEVICE_SECURITY, errors } from '../../lib/route-schemas';
import type { DeviceRecord } from '../devices/devices.repository';
import type { DeviceGateway } from './device-gateway';

declare module 'fastify' {
  interface FastifyRequest {
    /** The device a key-authenticated request comes from. */
    device: DeviceRecord | null;
  }
}

export interface DeviceRoutesOptions {
  gateway: DeviceGateway;
}

const DeviceCommandSchema = Type.Object({ id: Type.String(), command: Type.String(), issuedAt: Type.String(), expiresAt: Type.String() });
/** Longest long poll; any larger `wait` is taken as this (docs/protocol.md). */
const MAX_WAIT_S = 60;
const DEFAULT_WAIT_S = '25';

/** The key of a device request: X-API-Key, or Authorization: Bearer. */
function deviceKeyOf(req: FastifyRequest): string | undefined {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header.length > 0) return header;
  const auth = req.headers.authorization;
  if (auth && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, '').trim();
  return undefined;
}

/**
 * The device protocol over HTTP (docs/protocol.md "HTTP"): a thin adapter over the device gateway.
 * Key and rate are checked before anything else of a request is read.
 */
export default async function deviceRoutes(app: FastifyInstance, opts: DeviceRoutesOptions) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { gateway } = opts;

  // 1. key, 2. rate — before the body is read.
  const onRequest = async (req: FastifyRequest) => {
    req.device = gateway.admit(deviceKeyOf(req));
  };
  /** The device named in the path must be the key's. */
  const deviceOfPath = (req: FastifyRequest, id: string): DeviceRecord => {
    if (req.device!.id !== id) throw new AppError(403, 'DEVICE_ID_MISMATCH');
    return req.device!;
  };

  r.post('/api/v1/telemetry', {
    config: { access: 'device' },
    bodyLimit: MAX_BODY_BYTES,
    onRequest,
    schema: {
      tags: ['devices (protocol)'],
      summary: 'A device reports one reading or a batch of up to 500 (docs/protocol.md)',
      security: DEVICE_SECURITY,
      body: Type.Unknown({ description: 'One message or an array of up to 500; validated in the order of docs/protocol.md' }),
      response: {
        202: Type.Object({ accepted: Type.Integer(), duplicates: Type.Integer(), commands: Type.Array(Type.Unknown()) }),
        ...errors(400, 401, 403, 413, 415, 422, 429),
      },
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
      const result = await gateway.ingest(req.device!, req.body, 'http');
      const commands = await gateway.takeCommands(req.device!.id);
      return reply.status(202).send({ ...result, commands });
    },
  });

  r.get('/api/v1/devices/:id/commands', {
    config: { access: 'device' },
    onRequest,
    schema: {
      tags: ['devices (protocol)'],
      summary: 'Long poll: the device waits up to `wait` seconds for a command',
      security: DEVICE_SECURITY,
      params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
      querystring: Type.Object({ wait: Type.Optional(Type.String({ maxLength: 32 })) }),
      response: { 200: Type.Array(DeviceCommandSchema), ...errors(400, 401, 403, 429) },
    },
    handler: async (req, reply) => {
      const device = deviceOfPath(req, req.params.id);
      const raw = req.query.wait ?? DEFAULT_WAIT_S;
      // Whole seconds; any larger number is taken as 60 (docs/protocol.md), anything else is refused.
      if (!/^\d+$/.test(raw)) throw badRequest('VALIDATION_FAILED', { field: 'wait' });
      const waitS = Math.min(Number(raw), MAX_WAIT_S);
      const abort = new AbortController();
      req.raw.on('close', () => abort.abort());
      const commands = await gateway.waitForCommands(device.id, waitS * 1000, abort.signal);
      // A poll ended by Desconectar, a new key or retirement answers as a new request would.
      if (commands.length === 0) gateway.authenticate(deviceKeyOf(req));
      return reply.status(200).send(commands);
    },
  });

  r.post('/api/v1/devices/:id/commands/:commandId/ack', {
    config: { access: 'device' },
    onRequest,
    schema: {
      tags: ['devices (protocol)'],
      summary: "The device's acknowledgement of a command",
      security: DEVICE_SECURITY,
      params: Type.Object({ id: Type.String({ maxLength: 64 }), commandId: Type.String({ maxLength: 100 }) }),
      body: Type.Unknown(),
      response: { 200: Type.Object({ status: Type.String() }), ...errors(400, 401, 403, 404, 422) },
    },
    handler: async (req) => {
      const device = deviceOfPath(req, req.params.id);
      return { status: await gateway.acknowledge(device.id, req.params.commandId, req.body) };
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
