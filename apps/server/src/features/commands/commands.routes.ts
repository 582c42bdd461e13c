import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CommandSchema, DEVICE_ID_PATTERN, Page } from '@agua/shared';
import { badRequest, notFound } from '../../lib/errors';
import { errors, LIST_COMPRESSION, SESSION_SECURITY } from '../../lib/route-schemas';
import { toCommand } from './commands.repository';
import type { CommandsService } from './commands.service';

export interface CommandsRoutesOptions {
  commands: CommandsService;
}

/** Cursor of a command page: the last item's issue time and id. */
const encodeCursor = (issuedAtMs: number, id: string) => Buffer.from(`${issuedAtMs}|${id}`).toString('base64url');
function decodeCursor(cursor: string): { issuedAtMs: number; id: string } {
  const [ms, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!ms || !id || !/^\d{1,15}$/.test(ms)) throw badRequest('VALIDATION_FAILED', { field: 'cursor' });
  return { issuedAtMs: Number(ms), id };
}

/** Commands as users see them: issued, looked up, listed (docs/api.md). Devices take them through the gateway. */
export default async function commandsRoutes(app: FastifyInstance, opts: CommandsRoutesOptions) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const DeviceParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

  r.post('/api/v1/devices/:id/commands', {
    // write is checked by the service, so that a refusal is audited too.
    config: { access: 'read' },
    schema: {
      tags: ['commands'],
      summary: 'Send a command to a device (gates: abrir, cerrar, detener; sensors: read, restart)',
      security: SESSION_SECURITY,
      params: DeviceParams,
      body: Type.Object({ command: Type.String({ minLength: 1, maxLength: 32 }) }),
      response: {
        202: Type.Object({ success: Type.Literal(true), message: Type.String(), commandId: Type.String() }),
        // 503: several instances, and the one holding the device did not answer in time.
        ...errors(400, 401, 403, 404, 409, 422, 503),
      },
    },
    // docs/api.md's order puts 403 first: a user without write gets it before the body is even parsed
    // (a malformed body included); the refusal is audited with the command it named, if any.
    preParsing: async (req, _reply, payload) => {
      if (!opts.commands.mayIssue(req.auth!.user)) {
        await opts.commands.assertMayIssue(req.auth!.user, (req.params as { id: string }).id, await commandNamedIn(payload), req.ip);
      }
      return payload;
    },
    handler: async (req, reply) => {
      const result = await opts.commands.issue(req.auth!.user, req.params.id, req.body.command, req.ip);
      return reply.status(202).send({ success: true as const, ...result });
    },
  });

  r.get('/api/v1/commands/:commandId', {
    config: { access: 'read' },
    schema: {
      tags: ['commands'],
      summary: 'One command with its status',
      security: SESSION_SECURITY,
      params: Type.Object({ commandId: Type.String({ maxLength: 100 }) }),
      response: { 200: CommandSchema, ...errors(401, 403, 404) },
    },
    handler: async (req) => {
      const command = await opts.commands.findById(req.params.commandId);
      if (!command) throw notFound('COMMAND_NOT_FOUND');
      return command;
    },
  });

  r.get('/api/v1/commands', {
    compress: LIST_COMPRESSION,
    config: { access: 'read' },
    schema: {
      tags: ['commands'],
      summary: "A device's commands (or all), newest first, as a page",
      security: SESSION_SECURITY,
      querystring: Type.Object({
        deviceId: Type.Optional(Type.String({ pattern: DEVICE_ID_PATTERN })),
        limit: Type.Integer({ minimum: 1, maximum: 200, default: 20 }),
        cursor: Type.Optional(Type.String({ maxLength: 200 })),
      }),
      response: { 200: Page(CommandSchema), ...errors(400, 401, 403, 404) },
    },
    handler: async (req) => {
      const { deviceId, limit, cursor } = req.query;
      if (deviceId !== undefined && !opts.commands.knowsDevice(deviceId)) throw notFound('DEVICE_NOT_FOUND');
      const rows = await opts.commands.page({ ...(deviceId ? { deviceId } : {}), limit: limit + 1, ...(cursor ? { after: decodeCursor(cursor) } : {}) });
      const items = rows.slice(0, limit);
      const last = items[items.length - 1];
      return { items: items.map(toCommand), nextCursor: rows.length > limit && last ? encodeCursor(last.issuedAtMs, last.id) : null };
    },
  });
}

/** The `command` a refused request's body names, read from at most 4 KiB of it, for the audit trail. */
async function commandNamedIn(body: AsyncIterable<Buffer | string>): Promise<unknown> {
  let text = '';
  for await (const chunk of body) {
    text += chunk.toString();
    if (text.length > 4096) return undefined;
  }
  try {
    return (JSON.parse(text) as { command?: unknown } | null)?.command;
  } catch {
    return undefined;
  }
}
