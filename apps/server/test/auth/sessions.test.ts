// Sessions: /auth/me, logout, expiry, deactivation, forced password change (docs/api.md "Sign-in", "Rules").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@agua/shared';
import { sessionIdOf } from '../../src/features/auth/auth.service';
import { DEMO_PASSWORDS, startServer, type TestServer } from '../helpers/server';
import { auditEvents, createUser, expectUserShape, MSG, openLiveSocket } from './auth-helpers';
import { expectApiError, login, loginCookie } from '../helpers/api';
import { sqlAll, sqlGet } from '../helpers/sql';

const HOUR_MS = 3600 * 1000;
const UNAUTHENTICATED_MSG = 'Sesión no válida o expirada. Inicie sesión de nuevo.';

const tokenOf = (cookie: string) => cookie.slice(cookie.indexOf('=') + 1);

async function setLastUsed(s: TestServer, cookie: string, ms: number): Promise<void> {
  // RETURNING: one row back per row changed.
  const changes = (await sqlAll(s, 'UPDATE sessions SET last_used_ms = ? WHERE id = ? RETURNING id', ms, sessionIdOf(tokenOf(cookie)))).length;
  expect(changes).toBe(1);
}

async function lastUsed(s: TestServer, cookie: string): Promise<number | undefined> {
  const row = await sqlGet<{ last_used_ms: number }>(s, 'SELECT last_used_ms FROM sessions WHERE id = ?', sessionIdOf(tokenOf(cookie)));
  return row === undefined ? undefined : Number(row.last_used_ms);
}

async function expectUnauthenticated(res: Response): Promise<void> {
  const body = await expectApiError(res, 401, 'UNAUTHENTICATED', UNAUTHENTICATED_MSG);
  expect(body).toEqual({ error: UNAUTHENTICATED_MSG, code: 'UNAUTHENTICATED' });
}

describe('sessions', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ LOGIN_MAX_FAILURES_PER_USER: '1000', LOGIN_MAX_FAILURES_PER_ADDRESS: '1000' });
  });
  afterAll(async () => s.close());

  describe('GET /api/v1/auth/me', () => {
    it('returns the signed-in User', async () => {
      const cookie = await s.login('operator');
      const res = await s.fetch('/api/v1/auth/me', { cookie });
      expect(res.status).toBe(200);
      const user = (await res.json()) as User;
      expectUserShape(user, { username: 'operator', role: 'operator' });
      expect(user.lastLogin).not.toBeNull();
    });

    it('answers 401 UNAUTHENTICATED without a cookie', async () => {
      await expectUnauthenticated(await s.fetch('/api/v1/auth/me'));
    });

    it.each([
      ['garbage', 'agua_session=garbage'],
      ['empty', 'agua_session='],
      ['well-formed but unknown', `agua_session=${'A'.repeat(43)}`],
      ['very long', `agua_session=${'x'.repeat(4000)}`],
      ['another cookie name', `other=${'A'.repeat(43)}`],
    ])('answers 401 for a %s cookie', async (_name, cookie) => {
      await expectUnauthenticated(await s.fetch('/api/v1/auth/me', { cookie }));
    });

    it('does not accept the stored session id (hash) as a token', async () => {
      const cookie = await s.login('viewer');
      await expectUnauthenticated(await s.fetch('/api/v1/auth/me', { cookie: `agua_session=${sessionIdOf(tokenOf(cookie))}` }));
    });
  });

  describe('logout', () => {
    it('answers 204, clears the cookie, and the same cookie is refused afterwards', async () => {
      const cookie = await s.login('viewer');
      const res = await s.fetch('/api/v1/auth/logout', { method: 'POST', cookie });
      expect(res.status).toBe(204);
      expect(await res.text()).toBe('');
      const cleared = res.headers.getSetCookie().find((c) => c.startsWith('agua_session='));
      expect(cleared).toBeDefined();
      expect(cleared).toMatch(/^agua_session=;/);
      expect(cleared!.toLowerCase()).toMatch(/max-age=0|expires=thu, 01 jan 1970/);
      await expectUnauthenticated(await s.fetch('/api/v1/auth/me', { cookie }));
      await expectUnauthenticated(await s.fetch('/api/v1/devices', { cookie }));
      expect(await lastUsed(s, cookie)).toBeUndefined();
    });

    it('closes the session\'s live socket with 4401', async () => {
      const cookie = await s.login('viewer');
      const socket = await openLiveSocket(s, cookie);
      expect((await s.fetch('/api/v1/auth/logout', { method: 'POST', cookie })).status).toBe(204);
      expect(await socket.closed).toBe(4401);
    });

    it('answers 401 to a second logout with the same cookie, and to a logout without one', async () => {
      const cookie = await s.login('viewer');
      expect((await s.fetch('/api/v1/auth/logout', { method: 'POST', cookie })).status).toBe(204);
      await expectUnauthenticated(await s.fetch('/api/v1/auth/logout', { method: 'POST', cookie }));
      await expectUnauthenticated(await s.fetch('/api/v1/auth/logout', { method: 'POST' }));
    });

    it('ends only this session, not the same user\'s other sessions', async () => {
      const a = await s.login('operator');
      const b = await s.login('operator');
      expect((await s.fetch('/api/v1/auth/logout', { method: 'POST', cookie: a })).status).toBe(204);
      await expectUnauthenticated(await s.fetch('/api/v1/auth/me', { cookie: a }));
      expect((await s.fetch('/api/v1/auth/me', { cookie: b })).status).toBe(200);
    });
  });

  describe('expiry (SESSION_TTL_H, default 12 h, from the last use)', () => {
    it('refuses a session unused for more than 12 hours, and forgets it', async () => {
      const cookie = await s.login('viewer');
      await setLastUsed(s, cookie, Date.now() - 12 * HOUR_MS - 60_000);
      await expectUnauthenticated(await s.fetch('/api/v1/auth/me', { cookie }));
      expect(await lastUsed(s, cookie)).toBeUndefined();
      // It does not come back.
      await expectUnauthenticated(await s.fetch('/api/v1/auth/me', { cookie }));
    });

    it('keeps a session used 11 hours ago and slides its last use to now', async () => {
      const cookie = await s.login('viewer');
      const elevenHoursAgo = Date.now() - 11 * HOUR_MS;
      await setLastUsed(s, cookie, elevenHoursAgo);
      expect((await s.fetch('/api/v1/devices', { cookie })).status).toBe(200);
      const touched = (await lastUsed(s, cookie))!;
      expect(touched).toBeGreaterThan(Date.now() - 60_000);
      // 11 more hours later it is still alive, because it was used.
      await setLastUsed(s, cookie, touched - 11 * HOUR_MS);
      expect((await s.fetch('/api/v1/auth/me', { cookie })).status).toBe(200);
    });

    it('applies to every protected route, not only /auth/me', async () => {
      const cookie = await s.login('admin');
      await setLastUsed(s, cookie, 0);
      await expectUnauthenticated(await s.fetch('/api/v1/users', { cookie }));
    });
  });

  describe('a deactivated or deleted user', () => {
    it('loses their session at the next request', async () => {
      const id = await createUser(s, { username: 'desactivar1', password: 'clave-desactivar-1', role: 'operator' });
      const cookie = await loginCookie(s, { username: 'desactivar1', password: 'clave-desactivar-1' });
      expect((await s.fetch('/api/v1/devices', { cookie })).status).toBe(200);
      await s.modules.auth.users.update(id, { status: 'inactive' });
      await expectUnauthenticated(await s.fetch('/api/v1/devices', { cookie }));
      // Reactivating does not revive the ended session.
      await s.modules.auth.users.update(id, { status: 'active' });
      await expectUnauthenticated(await s.fetch('/api/v1/auth/me', { cookie }));
    });

    it('ends the sessions of a deleted user', async () => {
      const id = await createUser(s, { username: 'borrar0001', password: 'clave-borrar-01' });
      const cookie = await loginCookie(s, { username: 'borrar0001', password: 'clave-borrar-01' });
      expect((await s.fetch('/api/v1/auth/me', { cookie })).status).toBe(200);
      await s.modules.auth.users.delete(id);
      await expectUnauthenticated(await s.fetch('/api/v1/auth/me', { cookie }));
    });

    it('deactivating the demo viewer through the repository ends its session', async () => {
      const cookie = await s.login('viewer');
      const viewer = (await s.modules.auth.users.findByUsername('viewer'))!;
      await s.modules.auth.users.update(viewer.id, { status: 'inactive' });
      try {
        await expectUnauthenticated(await s.fetch('/api/v1/auth/me', { cookie }));
      } finally {
        await s.modules.auth.users.update(viewer.id, { status: 'active' });
      }
    });
  });

  describe('forced password change (mustChangePassword)', () => {
    const username = 'supervisor1';
    const temporary = 'temporal-123';
    let userId: string;
    let cookie: string;
    let otherCookie: string;

    beforeAll(async () => {
      userId = await createUser(s, { username, password: temporary, role: 'operator', mustChangePassword: true });
      otherCookie = await loginCookie(s, { username, password: temporary });
      cookie = await loginCookie(s, { username, password: temporary });
    });

    it('signs in with 200 and mustChangePassword true', async () => {
      const res = await login(s, { username, password: temporary });
      expect(res.status).toBe(200);
      expect(((await res.json()) as User).mustChangePassword).toBe(true);
    });

    it('answers 403 PASSWORD_CHANGE_REQUIRED on other routes', async () => {
      const body = await expectApiError(await s.fetch('/api/v1/devices', { cookie }), 403, 'PASSWORD_CHANGE_REQUIRED', MSG.PASSWORD_CHANGE_REQUIRED);
      expect(body).toEqual({ error: MSG.PASSWORD_CHANGE_REQUIRED, code: 'PASSWORD_CHANGE_REQUIRED' });
    });

    it('answers 200 on /auth/me with mustChangePassword true', async () => {
      const res = await s.fetch('/api/v1/auth/me', { cookie });
      expect(res.status).toBe(200);
      const user = (await res.json()) as User;
      expect(user.username).toBe(username);
      expect(user.mustChangePassword).toBe(true);
    });

    it.each([
      ['shorter than 10 characters', 'corta1234'],
      ['equal to the username', username],
      ['the username in other case', username.toUpperCase()],
      ['equal to the current password', temporary],
    ])('refuses a new password %s with 422 PASSWORD_POLICY', async (_name, newPassword) => {
      const res = await s.fetch('/api/v1/auth/password', { method: 'POST', cookie, json: { currentPassword: temporary, newPassword } });
      await expectApiError(res, 422, 'PASSWORD_POLICY');
    });

    it('refuses a wrong current password with 422', async () => {
      const res = await s.fetch('/api/v1/auth/password', { method: 'POST', cookie, json: { currentPassword: 'no-es-esta-1', newPassword: 'nueva-clave-segura' } });
      await expectApiError(res, 422, 'PASSWORD_CURRENT_INVALID');
    });

    it.each([
      ['no body fields', {}],
      ['no newPassword', { currentPassword: temporary }],
      ['no currentPassword', { newPassword: 'nueva-clave-segura' }],
      ['numbers', { currentPassword: [1], newPassword: { a: 1 } }],
    ])('answers a malformed body (%s) with 400', async (_name, json) => {
      await expectApiError(await s.fetch('/api/v1/auth/password', { method: 'POST', cookie, json }), 400, 'VALIDATION_FAILED');
    });

    it('still requires the change after the refused attempts', async () => {
      await expectApiError(await s.fetch('/api/v1/devices', { cookie }), 403, 'PASSWORD_CHANGE_REQUIRED', MSG.PASSWORD_CHANGE_REQUIRED);
      expect((await s.fetch('/api/v1/auth/me', { cookie: otherCookie })).status).toBe(200);
    });

    it('changes the password: 200 User, this session reaches the API, the other session ends', async () => {
      const res = await s.fetch('/api/v1/auth/password', { method: 'POST', cookie, json: { currentPassword: temporary, newPassword: 'nueva-clave-segura' } });
      expect(res.status).toBe(200);
      const user = (await res.json()) as User;
      expectUserShape(user, { username, role: 'operator' });
      expect(user.mustChangePassword).toBe(false);

      expect((await s.fetch('/api/v1/devices', { cookie })).status).toBe(200);
      const me = (await (await s.fetch('/api/v1/auth/me', { cookie })).json()) as User;
      expect(me.mustChangePassword).toBe(false);
      await expectUnauthenticated(await s.fetch('/api/v1/auth/me', { cookie: otherCookie }));
      expect((await s.modules.auth.users.findById(userId))!.mustChangePassword).toBe(false);
    });

    it('the old password stops working and the new one works', async () => {
      await expectApiError(await login(s, { username, password: temporary }), 401, 'INVALID_CREDENTIALS', MSG.INVALID_CREDENTIALS);
      const res = await login(s, { username, password: 'nueva-clave-segura' });
      expect(res.status).toBe(200);
      expect(((await res.json()) as User).mustChangePassword).toBe(false);
    });

    it('records user.password_changed in the audit trail', async () => {
      const events = await auditEvents(s, 'user.password_changed');
      expect(events.find((e) => e.userId === userId && e.result === 'ok')).toMatchObject({ ip: '127.0.0.1', username });
      expect(JSON.stringify(events)).not.toContain('nueva-clave-segura');
    });

    it('lets a user with a pending change sign out', async () => {
      await createUser(s, { username: 'pendiente01', password: 'temporal-456', mustChangePassword: true });
      const c = await loginCookie(s, { username: 'pendiente01', password: 'temporal-456' });
      expect((await s.fetch('/api/v1/auth/logout', { method: 'POST', cookie: c })).status).toBe(204);
      await expectUnauthenticated(await s.fetch('/api/v1/auth/me', { cookie: c }));
    });

    it('a pending admin gets 403 PASSWORD_CHANGE_REQUIRED on admin routes too', async () => {
      await createUser(s, { username: 'adminnuevo', password: 'temporal-789', role: 'admin', masterPassword: 'maestra-nueva-1', mustChangePassword: true });
      const c = await loginCookie(s, { username: 'adminnuevo', password: 'temporal-789', masterPassword: 'maestra-nueva-1' });
      await expectApiError(await s.fetch('/api/v1/users', { cookie: c }), 403, 'PASSWORD_CHANGE_REQUIRED', MSG.PASSWORD_CHANGE_REQUIRED);
      await expectApiError(await s.fetch('/api/v1/audit', { cookie: c }), 403, 'PASSWORD_CHANGE_REQUIRED', MSG.PASSWORD_CHANGE_REQUIRED);
    });
  });

  describe('changing one\'s own password without a pending change', () => {
    it('keeps this session and ends the others, for an ordinary user too', async () => {
      await createUser(s, { username: 'ordinario1', password: 'clave-ordinaria-1' });
      const mine = await loginCookie(s, { username: 'ordinario1', password: 'clave-ordinaria-1' });
      const laptop = await loginCookie(s, { username: 'ordinario1', password: 'clave-ordinaria-1' });
      const phone = await loginCookie(s, { username: 'ordinario1', password: 'clave-ordinaria-1' });
      const res = await s.fetch('/api/v1/auth/password', {
        method: 'POST',
        cookie: mine,
        json: { currentPassword: 'clave-ordinaria-1', newPassword: 'clave-ordinaria-2' },
      });
      expect(res.status).toBe(200);
      expect((await s.fetch('/api/v1/auth/me', { cookie: mine })).status).toBe(200);
      await expectUnauthenticated(await s.fetch('/api/v1/auth/me', { cookie: laptop }));
      await expectUnauthenticated(await s.fetch('/api/v1/auth/me', { cookie: phone }));
    });

    it('closes the live sockets of the ended sessions (4401) and keeps this one', async () => {
      await createUser(s, { username: 'ordinario3', password: 'clave-ordinaria-5' });
      const mine = await loginCookie(s, { username: 'ordinario3', password: 'clave-ordinaria-5' });
      const other = await loginCookie(s, { username: 'ordinario3', password: 'clave-ordinaria-5' });
      const mySocket = await openLiveSocket(s, mine);
      const otherSocket = await openLiveSocket(s, other);
      const res = await s.fetch('/api/v1/auth/password', {
        method: 'POST',
        cookie: mine,
        json: { currentPassword: 'clave-ordinaria-5', newPassword: 'clave-ordinaria-6' },
      });
      expect(res.status).toBe(200);
      expect(await otherSocket.closed).toBe(4401);
      await new Promise((r) => setTimeout(r, 100));
      expect(mySocket.isOpen()).toBe(true);
      mySocket.close();
    });

    it('does not touch other users\' sessions', async () => {
      const viewer = await s.login('viewer');
      await createUser(s, { username: 'ordinario2', password: 'clave-ordinaria-3' });
      const mine = await loginCookie(s, { username: 'ordinario2', password: 'clave-ordinaria-3' });
      const res = await s.fetch('/api/v1/auth/password', {
        method: 'POST',
        cookie: mine,
        json: { currentPassword: 'clave-ordinaria-3', newPassword: 'clave-ordinaria-4' },
      });
      expect(res.status).toBe(200);
      expect((await s.fetch('/api/v1/auth/me', { cookie: viewer })).status).toBe(200);
    });

    it('requires a session (401 without one)', async () => {
      await expectUnauthenticated(
        await s.fetch('/api/v1/auth/password', { method: 'POST', json: { currentPassword: 'viewer123', newPassword: 'clave-nueva-larga' } }),
      );
    });
  });

  describe('audit of sign-in and sign-out', () => {
    it('records auth.login and auth.logout with result ok and the address', async () => {
      const cookie = await loginCookie(s, DEMO_PASSWORDS.operator);
      expect((await s.fetch('/api/v1/auth/logout', { method: 'POST', cookie })).status).toBe(204);
      const operator = (await s.modules.auth.users.findByUsername('operator'))!;
      const logins = await auditEvents(s, 'auth.login');
      const logouts = await auditEvents(s, 'auth.logout');
      expect(logins.find((e) => e.userId === operator.id)).toMatchObject({
        action: 'auth.login',
        result: 'ok',
        username: 'operator',
        ip: '127.0.0.1',
        target: `user:${operator.id}`,
      });
      expect(logouts[0]).toMatchObject({ action: 'auth.logout', result: 'ok', userId: operator.id, username: 'operator', ip: '127.0.0.1' });
      expect(typeof logouts[0]!.at).toBe('string');
    });
  });
});

describe('sessions with SESSION_TTL_H=1', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ SESSION_TTL_H: '1' });
  });
  afterAll(async () => s.close());

  it('keeps a session used 59 minutes ago and ends one used 61 minutes ago', async () => {
    const fresh = await s.login('viewer');
    const stale = await s.login('viewer');
    await setLastUsed(s, fresh, Date.now() - 59 * 60_000);
    await setLastUsed(s, stale, Date.now() - 61 * 60_000);
    expect((await s.fetch('/api/v1/auth/me', { cookie: fresh })).status).toBe(200);
    await expectUnauthenticated(await s.fetch('/api/v1/auth/me', { cookie: stale }));
  });
});
