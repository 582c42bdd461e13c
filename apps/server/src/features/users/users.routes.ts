import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { type Role, CreateUserBodySchema, ResetPasswordBodySchema, UpdateUserBodySchema, UserSchema } from '@agua/shared';
import { errors, SESSION_SECURITY } from '../../lib/route-schemas';
import { toUser } from './user.mapper';
import type { UsersRepository } from './users.repository';
import type { UsersService } from './users.service';

const Params = Type.Object({ id: Type.String({ maxLength: 100 }) });

/** User administration, for role admin exactly (docs/api.md). */
export interface UsersRoutesOptions {
  users: UsersRepository;
  service: UsersService;
  /** The roles that must sign in with TOTP, read now (a user's `mustEnrolTotp`). */
  totpRequiredRoles: () => Promise<readonly Role[]>;
}

export default async function usersRoutes(app: FastifyInstance, opts: UsersRoutesOptions) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['users'];
  const actor = (req: FastifyRequest) => ({ user: req.auth!.user, ip: req.ip, sessionId: req.auth!.session.id });
  const shown = async (user: Parameters<typeof toUser>[0]) => toUser(user, await opts.totpRequiredRoles());

  r.get('/api/v1/users', {
    config: { access: 'admin' },
    schema: { tags, summary: 'Every user', security: SESSION_SECURITY, response: { 200: Type.Array(UserSchema), ...errors(401, 403) } },
    handler: async () => {
      const roles = await opts.totpRequiredRoles();
      return (await opts.users.list()).map((u) => toUser(u, roles));
    },
  });

  r.post('/api/v1/users', {
    config: { access: 'admin' },
    schema: {
      tags,
      summary: 'Create a user with a temporary password (to be changed at first sign-in)',
      security: SESSION_SECURITY,
      body: CreateUserBodySchema,
      response: { 201: UserSchema, ...errors(400, 401, 403, 409, 422) },
    },
    handler: async (req, reply) => reply.status(201).send(await shown(await opts.service.create(req.body, actor(req)))),
  });

  r.patch('/api/v1/users/:id', {
    config: { access: 'admin' },
    schema: {
      tags,
      summary: 'Edit a user (name, email, role, status, master password of an admin)',
      description:
        "`masterPassword` is required when making someone admin. Admins setting their own need `currentMasterPassword` too " +
        '(422 MASTER_PASSWORD_REQUIRED without it, 422 MASTER_PASSWORD_CURRENT_INVALID when wrong, which counts as a sign-in failure: ' +
        '429 TOO_MANY_ATTEMPTS during a lockout); their other sessions then end.',
      security: SESSION_SECURITY,
      params: Params,
      body: UpdateUserBodySchema,
      response: { 200: UserSchema, ...errors(400, 401, 403, 404, 409, 422, 429) },
    },
    handler: async (req) => shown(await opts.service.patch(req.params.id, req.body, actor(req))),
  });

  r.delete('/api/v1/users/:id', {
    config: { access: 'admin' },
    schema: { tags, summary: 'Delete a user', security: SESSION_SECURITY, params: Params, response: { 204: Type.Null(), ...errors(401, 403, 404, 409) } },
    handler: async (req, reply) => {
      await opts.service.delete(req.params.id, actor(req));
      return reply.status(204).send(null);
    },
  });

  r.post('/api/v1/users/:id/password', {
    config: { access: 'admin' },
    schema: {
      tags,
      summary: 'Set a new temporary password; the user must change it and their sessions end',
      security: SESSION_SECURITY,
      params: Params,
      body: ResetPasswordBodySchema,
      response: { 200: UserSchema, ...errors(400, 401, 403, 404, 422) },
    },
    handler: async (req) => shown(await opts.service.resetPassword(req.params.id, req.body.password, actor(req))),
  });
}
