import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ChangePasswordBodySchema, LoginBodySchema, UserSchema } from '@agua/shared';
import { SESSION_COOKIE, setSessionCookie } from '../../plugins/access';
import { errors, PUBLIC_SECURITY, SESSION_SECURITY } from '../../lib/route-schemas';
import { AppError } from '../../lib/errors';
import { toUser } from '../users/user.mapper';
import type { AuthService } from './auth.service';

export interface AuthRoutesOptions {
  auth: AuthService;
  cookieSecure: boolean;
  sessionTtlH: number;
  /** ALLOWED_NETWORKS: whether one may sign in from this address; absent: from anywhere. */
  allowedFrom?: (address: string) => boolean;
  addressRefused?: (req: FastifyRequest) => Promise<void>;
}

const SessionSchema = Type.Object(
  {
    id: Type.String({ description: 'an id of its own, not the token' }),
    createdAt: Type.String({ format: 'date-time' }),
    lastSeenAt: Type.String({ format: 'date-time' }),
    address: Type.Union([Type.String(), Type.Null()]),
    userAgent: Type.Union([Type.String(), Type.Null()]),
    current: Type.Boolean(),
  },
  { title: 'Session' },
);

/** Sign-in, sign-out, the current user and one's own password (docs/api.md "Sign-in"). */
export default async function authRoutes(app: FastifyInstance, opts: AuthRoutesOptions) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['auth'];

  const cookie = { secure: opts.cookieSecure, ttlH: opts.sessionTtlH };

  r.post('/api/v1/auth/login', {
    config: { access: 'public' },
    schema: {
      tags,
      summary: 'Sign in with username, password and (admin role) master password',
      security: PUBLIC_SECURITY,
      body: LoginBodySchema,
      response: { 200: UserSchema, ...errors(400, 401, 403, 429) },
    },
    handler: async (req, reply) => {
      // Step 0 (docs/security.md): from outside ALLOWED_NETWORKS, refused before anything is counted.
      if (opts.allowedFrom && !opts.allowedFrom(req.ip)) {
        await opts.addressRefused?.(req);
        throw new AppError(403, 'ADDRESS_NOT_ALLOWED');
      }
      const { user, token } = await opts.auth.login(req.body, { ip: req.ip, userAgent: req.headers['user-agent'] ?? null });
      setSessionCookie(req, reply, token, cookie);
      return toUser(user);
    },
  });

  r.post('/api/v1/auth/logout', {
    config: { access: 'session', allowPendingPasswordChange: true },
    schema: { tags, summary: 'End this session', security: SESSION_SECURITY, response: { 204: Type.Null(), ...errors(401, 403) } },
    handler: async (req, reply) => {
      await opts.auth.logout(req.auth!, req.ip);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.status(204).send(null);
    },
  });

  r.get('/api/v1/auth/me', {
    config: { access: 'session', allowPendingPasswordChange: true },
    schema: { tags, summary: 'The signed-in user', security: SESSION_SECURITY, response: { 200: UserSchema, ...errors(401) } },
    handler: async (req) => toUser(req.auth!.user),
  });

  r.post('/api/v1/auth/password', {
    config: { access: 'session', allowPendingPasswordChange: true },
    schema: {
      tags,
      summary: "Change one's own password (keeps this session, ends the others)",
      description:
        'A wrong `currentPassword` (422 PASSWORD_CURRENT_INVALID) counts as a sign-in failure of this username from this address: ' +
        'during a lockout every attempt, the right one included, gets 429 TOO_MANY_ATTEMPTS with Retry-After.',
      security: SESSION_SECURITY,
      body: ChangePasswordBodySchema,
      response: { 200: UserSchema, ...errors(400, 401, 403, 422, 429) },
    },
    handler: async (req) => {
      const user = await opts.auth.changeOwnPassword(req.auth!, req.body.currentPassword, req.body.newPassword, req.ip);
      return toUser(user);
    },
  });

  r.get('/api/v1/auth/sessions', {
    config: { access: 'session' },
    schema: {
      tags,
      summary: "One's own sessions, newest first (`userId`: another user's, with manage_users)",
      security: SESSION_SECURITY,
      querystring: Type.Object({ userId: Type.Optional(Type.String({ maxLength: 64 })) }),
      response: { 200: Type.Array(SessionSchema), ...errors(401, 403, 404) },
    },
    handler: async (req) => opts.auth.sessionsOf(req.auth!, req.query.userId),
  });

  r.delete('/api/v1/auth/sessions/:id', {
    config: { access: 'session' },
    schema: {
      tags,
      summary: 'Ends a session (its live sockets close with 4401); another user\'s with manage_users, else 404 SESSION_NOT_FOUND',
      security: SESSION_SECURITY,
      params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
      response: { 204: Type.Null(), ...errors(401, 403, 404) },
    },
    handler: async (req, reply) => {
      await opts.auth.revokeSession(req.auth!, req.params.id, req.ip);
      return reply.status(204).send(null);
    },
  });
}
