import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  ChangePasswordBodySchema,
  LoginBodySchema,
  TotpDisableBodySchema,
  TotpEnableBodySchema,
  TotpEnabledSchema,
  TotpSetupSchema,
  UserSchema,
} from '@agua/shared';
import { SESSION_COOKIE, setSessionCookie } from '../../plugins/access';
import { errors, PUBLIC_SECURITY, SESSION_SECURITY } from '../../lib/route-schemas';
import { AppError } from '../../lib/errors';
import { toUser } from '../users/user.mapper';
import type { SettingsService } from '../settings/settings.service';
import type { AuthService } from './auth.service';
import type { TwoFactorService } from './two-factor.service';

export interface AuthRoutesOptions {
  auth: AuthService;
  twoFactor: TwoFactorService;
  settings: SettingsService;
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

/**
 * Sign-in, sign-out, the current user, one's own password, second factor and sessions (docs/api.md
 * "Sign-in", docs/security.md). The routes a session that must still enrol in TOTP may reach say
 * `allowPendingTotpEnrolment`.
 */
export default async function authRoutes(app: FastifyInstance, opts: AuthRoutesOptions) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['auth'];
  const userOf = async (user: Parameters<typeof toUser>[0]) => toUser(user, await opts.settings.totpRequiredRoles());
  const enrolment = { access: 'session', allowPendingPasswordChange: true, allowPendingTotpEnrolment: true } as const;

  const cookie = { secure: opts.cookieSecure, ttlH: opts.sessionTtlH };

  r.post('/api/v1/auth/login', {
    config: { access: 'public' },
    schema: {
      tags,
      summary: 'Sign in with username, password, (admin role) master password and (TOTP on) a code',
      description:
        'Checks in this order: 403 ADDRESS_NOT_ALLOWED (not counted) → 429 TOO_MANY_ATTEMPTS → 401 INVALID_CREDENTIALS → 403 USER_INACTIVE → ' +
        '401 MASTER_PASSWORD_REQUIRED/INVALID → 401 TOTP_REQUIRED (no totpCode or recoveryCode) / TOTP_INVALID (wrong, reused or spent) → 200. ' +
        'Every 401 counts as a failure toward the lockout.',
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
      return userOf(user);
    },
  });

  r.post('/api/v1/auth/logout', {
    config: enrolment,
    schema: { tags, summary: 'End this session', security: SESSION_SECURITY, response: { 204: Type.Null(), ...errors(401, 403) } },
    handler: async (req, reply) => {
      await opts.auth.logout(req.auth!, req.ip);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.status(204).send(null);
    },
  });

  r.get('/api/v1/auth/me', {
    config: enrolment,
    schema: { tags, summary: 'The signed-in user', security: SESSION_SECURITY, response: { 200: UserSchema, ...errors(401) } },
    handler: async (req) => userOf(req.auth!.user),
  });

  r.post('/api/v1/auth/password', {
    config: enrolment,
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
      return userOf(user);
    },
  });

  r.post('/api/v1/auth/totp/setup', {
    config: { ...enrolment, allowPendingPasswordChange: false },
    schema: {
      tags,
      summary: 'A new TOTP secret and its otpauth:// URL (the QR code); replaces one set up and not yet enabled',
      security: SESSION_SECURITY,
      response: { 200: TotpSetupSchema, ...errors(401, 403, 409) },
    },
    handler: async (req) => opts.twoFactor.setup(req.auth!),
  });

  r.post('/api/v1/auth/totp/enable', {
    config: { ...enrolment, allowPendingPasswordChange: false },
    schema: {
      tags,
      summary: 'Turns TOTP on with a first code; answers the ten one-time recovery codes, shown only this once',
      description: 'A wrong code (422 TOTP_INVALID) counts as a sign-in failure; during a lockout 429 TOO_MANY_ATTEMPTS.',
      security: SESSION_SECURITY,
      body: TotpEnableBodySchema,
      response: { 200: TotpEnabledSchema, ...errors(400, 401, 403, 409, 422, 429) },
    },
    handler: async (req) => opts.twoFactor.enable(req.auth!, req.body.code, req.ip),
  });

  r.delete('/api/v1/auth/totp', {
    config: { ...enrolment, allowPendingPasswordChange: false },
    schema: {
      tags,
      summary: "Turns one's own TOTP off, with the password and a code (of the app, or a recovery code)",
      description: 'Wrong password or code: 422 REAUTH_FAILED (counted as a sign-in failure). 409 TOTP_REQUIRED_BY_ROLE when the role requires it.',
      security: SESSION_SECURITY,
      body: TotpDisableBodySchema,
      response: { 204: Type.Null(), ...errors(400, 401, 403, 409, 422, 429) },
    },
    handler: async (req, reply) => {
      await opts.twoFactor.disable(req.auth!, req.body.password, req.body.code, req.ip);
      return reply.status(204).send(null);
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

  r.delete('/api/v1/users/:id/totp', {
    config: { access: 'manage_users' },
    schema: {
      tags: ['users'],
      summary: "Turns a user's TOTP off (a lost phone): their recovery codes are deleted and their sessions end (audited user.totp_reset)",
      security: SESSION_SECURITY,
      params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
      response: { 204: Type.Null(), ...errors(401, 403, 404) },
    },
    handler: async (req, reply) => {
      await opts.twoFactor.reset(req.params.id, { user: req.auth!.user, ip: req.ip });
      return reply.status(204).send(null);
    },
  });
}
