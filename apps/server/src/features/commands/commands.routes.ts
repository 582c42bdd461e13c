import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CommandSchema, CommandStatusSchema, DEVICE_ID_PATTERN, INTERLOCK_LIMITS, Page } from '@agua/shared';
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
      description:
        'Refused in this order (docs/control.md): 403, 400, 404, 422 COMMAND_INVALID, 409 DEVICE_OFFLINE, 409 INTERLOCKED `{reasons}`, 422 COMMENT_REQUIRED, 422 REAUTH_REQUIRED / REAUTH_FAILED (a sign-in failure; 429 in a lockout), 409 COMMAND_IN_PROGRESS. `detener` skips the interlocks. A two-person command answers 202 with `status: awaiting_approval` and is not sent until another user approves it.',
      body: Type.Object({
        command: Type.String({ minLength: 1, maxLength: 32 }),
        comment: Type.Optional(Type.String({ maxLength: INTERLOCK_LIMITS.commentMax, description: 'required by a failed confirm interlock' })),
        password: Type.Optional(Type.String({ maxLength: 256, description: "the issuer's password, required by a failed reauth interlock; never stored or logged" })),
        takeManual: Type.Optional(Type.Boolean({ description: "'Tomar control manual': an operator's command during a schedule's open period" })),
      }),
      response: {
        202: Type.Object({
          success: Type.Literal(true),
          message: Type.String(),
          commandId: Type.String(),
          status: Type.Optional(Type.Literal('awaiting_approval', { description: 'a two-person command, waiting for approval (not sent)' })),
        }),
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
      const result = await opts.commands.issue(req.auth!.user, req.params.id, req.body, req.ip);
      return reply.status(202).send({ success: true as const, ...result });
    },
  });

  const ApprovalParams = Type.Object({ commandId: Type.String({ maxLength: 100 }) });
  const ApprovalBody = Type.Union([Type.Object({ comment: Type.Optional(Type.String({ maxLength: INTERLOCK_LIMITS.commentMax })) }), Type.Null()]);

  r.post('/api/v1/commands/:commandId/approve', {
    config: { access: 'write' },
    schema: {
      tags: ['commands'],
      summary: "Approves another person's two-person command: it is sent (docs/control.md)",
      description:
        'The issuer gets 403 SELF_APPROVAL; a command not awaiting approval 409 COMMAND_NOT_AWAITING_APPROVAL. DEVICE_OFFLINE, INTERLOCKED and COMMAND_IN_PROGRESS are judged again: a refusal answers the approver and the command waits on.',
      security: SESSION_SECURITY,
      params: ApprovalParams,
      body: ApprovalBody,
      response: { 200: CommandSchema, ...errors(400, 401, 403, 404, 409, 503) },
    },
    handler: async (req) => opts.commands.approve(req.auth!.user, req.params.commandId, req.body?.comment, req.ip),
  });

  r.post('/api/v1/commands/:commandId/reject', {
    config: { access: 'write' },
    schema: {
      tags: ['commands'],
      summary: 'Rejects a two-person command (its issuer too): it is never sent',
      security: SESSION_SECURITY,
      params: ApprovalParams,
      body: ApprovalBody,
      response: { 200: CommandSchema, ...errors(400, 401, 403, 404, 409) },
    },
    handler: async (req) => opts.commands.reject(req.auth!.user, req.params.commandId, req.body?.comment, req.ip),
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
        status: Type.Optional(CommandStatusSchema),
        limit: Type.Integer({ minimum: 1, maximum: 200, default: 20 }),
        cursor: Type.Optional(Type.String({ maxLength: 200 })),
      }),
      response: { 200: Page(CommandSchema), ...errors(400, 401, 403, 404) },
    },
    handler: async (req) => {
      const { deviceId, status, limit, cursor } = req.query;
      if (deviceId !== undefined && !opts.commands.knowsDevice(deviceId)) throw notFound('DEVICE_NOT_FOUND');
      const rows = await opts.commands.page({ ...(deviceId ? { deviceId } : {}), ...(status ? { status } : {}), limit: limit + 1, ...(cursor ? { after: decodeCursor(cursor) } : {}) });
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
