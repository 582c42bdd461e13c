// Provides request.auth and the per-route access check; needs the AuthService.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { can, type Permission } from '@agua/shared';
import { AppError, forbidden, unauthorized } from '../lib/errors';
import type { Authenticated, AuthService } from '../features/auth/auth.service';

export const SESSION_COOKIE = 'agua_session';

/**
 * Who may call a route: 'public' (anyone), 'device' (a device key, checked by the telemetry
 * feature), 'session' (any signed-in user), 'admin' (role admin exactly), or a permission.
 */
export type Access = 'public' | 'device' | 'session' | 'admin' | Permission;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** Reachable while the user must still change a temporary password (docs/api.md). */
    allowPendingPasswordChange?: boolean;
    /** Reachable by a session that must turn on TOTP first (docs/security.md "Two-factor sign-in"). */
    allowPendingTotpEnrolment?: boolean;
  }
  interface FastifyRequest {
    auth: Authenticated | null;
  }
}

export interface SessionCookieOptions {
  secure: boolean;
  ttlH: number;
}

/** Sets the session cookie; it lives as long as the session's idle time (docs/api.md). */
export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, token: string, opts: SessionCookieOptions): void {
  void reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: opts.secure || req.protocol === 'https',
    maxAge: opts.ttlH * 3600,
  });
}

export interface AccessOptions {
  auth: AuthService;
  cookie: SessionCookieOptions;
  /** ALLOWED_NETWORKS: whether a person may use a session from this address; absent: from anywhere. */
  allowedFrom?: (address: string) => boolean;
  /** A request refused for its address (audited; the session lives on). */
  addressRefused?: (req: FastifyRequest) => Promise<void>;
}

/** Resolves the session cookie and enforces the route's declared access before anything else runs. */
async function accessPlugin(app: FastifyInstance, opts: AccessOptions) {
  app.decorateRequest('auth', null);
  app.decorateRequest('device', null);

  // Secure by default: an API route that forgets to declare its access does not start.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/v1/') && !route.config?.access) {
      throw new Error(`route ${route.method} ${route.url} declares no access`);
    }
  });

  app.addHook('onRequest', async (req, reply) => {
    const access = req.routeOptions.config?.access ?? 'public';
    if (access === 'public' || access === 'device') return;
    if (opts.allowedFrom && !opts.allowedFrom(req.ip)) {
      await opts.addressRefused?.(req);
      throw new AppError(403, 'ADDRESS_NOT_ALLOWED');
    }
    const token = req.cookies[SESSION_COOKIE];
    req.auth = await opts.auth.authenticate(token);
    // The session slides with use; so does the cookie's Max-Age.
    if (req.auth?.touched && token) setSessionCookie(req, reply, token, opts.cookie);
    assertAccess(req, access);
  });
}

/** Throws the API's 401/403 when the request may not use a route of this access. */
export function assertAccess(req: FastifyRequest, access: Exclude<Access, 'public' | 'device'>): void {
  const auth = req.auth;
  if (!auth) throw unauthorized();
  if (auth.user.mustChangePassword && !req.routeOptions.config?.allowPendingPasswordChange) {
    throw new AppError(403, 'PASSWORD_CHANGE_REQUIRED');
  }
  if (auth.mustEnrolTotp && !req.routeOptions.config?.allowPendingTotpEnrolment) {
    throw new AppError(403, 'TOTP_ENROLMENT_REQUIRED');
  }
  if (access === 'session') return;
  if (access === 'admin') {
    if (auth.user.role !== 'admin') throw forbidden();
    return;
  }
  if (!can(auth.user, access)) throw forbidden();
}

export default fp(accessPlugin, { name: 'access', dependencies: ['@fastify/cookie'] });
