// POST /api/v1/auth/login: every answer of docs/api.md "Sign-in", in its order, over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@agua/shared';
import { DEMO_PASSWORDS, sessionCookieOf, startServer, type DemoRole, type TestServer } from '../helpers/server';
import { createUser, expectUserShape, MSG } from './auth-helpers';
import { ISO_Z, expectApiError, login } from '../helpers/api';
import { sqlAll } from '../helpers/sql';

describe('sign-in', () => {
  let s: TestServer;
  beforeAll(async () => {
    // Lockout is tested in lockout.test.ts; here it must not get in the way of the other answers.
    s = await startServer({ LOGIN_MAX_FAILURES_PER_USER: '1000', LOGIN_MAX_FAILURES_PER_ADDRESS: '1000' });
  });
  afterAll(async () => s.close());

  describe('2. unknown user or wrong password', () => {
    it('answers an unknown user with 401 INVALID_CREDENTIALS and the exact Spanish text', async () => {
      const res = await login(s, { username: 'nadie', password: 'viewer123' });
      const body = await expectApiError(res, 401, 'INVALID_CREDENTIALS', MSG.INVALID_CREDENTIALS);
      expect(body).toEqual({ error: MSG.INVALID_CREDENTIALS, code: 'INVALID_CREDENTIALS' });
      expect(res.headers.getSetCookie()).toEqual([]);
    });

    it('answers a wrong password with exactly the same body as an unknown user', async () => {
      const unknown = await login(s, { username: 'nadie', password: 'x-wrong-1' });
      const wrong = await login(s, { username: 'viewer', password: 'x-wrong-1' });
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      expect(await wrong.text()).toBe(await unknown.text());
      expect(wrong.headers.getSetCookie()).toEqual([]);
    });

    it('treats the password as case-sensitive', async () => {
      await expectApiError(await login(s, { username: 'viewer', password: 'VIEWER123' }), 401, 'INVALID_CREDENTIALS', MSG.INVALID_CREDENTIALS);
    });

    it('checks the password before the master password, and before telling the account is admin', async () => {
      // Wrong password for admin, without master: INVALID_CREDENTIALS, not MASTER_PASSWORD_REQUIRED.
      await expectApiError(await login(s, { username: 'admin', password: 'wrong-pass-1' }), 401, 'INVALID_CREDENTIALS', MSG.INVALID_CREDENTIALS);
      await expectApiError(
        await login(s, { username: 'admin', password: 'wrong-pass-1', masterPassword: 'maestra2024' }),
        401,
        'INVALID_CREDENTIALS',
        MSG.INVALID_CREDENTIALS,
      );
    });

    it('refuses the demo sample user without a usable password (lmartinez)', async () => {
      for (const password of ['x', 'lmartinez', '']) {
        const res = await login(s, { username: 'lmartinez', password });
        expect(res.status, `password ${JSON.stringify(password)}`).not.toBe(200);
        expect(res.status).toBeLessThan(500);
      }
      await expectApiError(await login(s, { username: 'lmartinez', password: 'cualquiera1' }), 401, 'INVALID_CREDENTIALS', MSG.INVALID_CREDENTIALS);
    });
  });

  describe('3. inactive user', () => {
    let inactiveId: string;
    beforeAll(async () => {
      inactiveId = await createUser(s, { username: 'inactivo01', password: 'clave-inactivo-1', role: 'operator', status: 'inactive' });
    });

    it('answers the right password of an inactive user with 403 USER_INACTIVE', async () => {
      const res = await login(s, { username: 'inactivo01', password: 'clave-inactivo-1' });
      const body = await expectApiError(res, 403, 'USER_INACTIVE', MSG.USER_INACTIVE);
      expect(body).toEqual({ error: MSG.USER_INACTIVE, code: 'USER_INACTIVE' });
      expect(res.headers.getSetCookie()).toEqual([]);
    });

    it('does not reveal that the account is inactive to a wrong password (401 INVALID_CREDENTIALS)', async () => {
      await expectApiError(await login(s, { username: 'inactivo01', password: 'otra-clave-99' }), 401, 'INVALID_CREDENTIALS', MSG.INVALID_CREDENTIALS);
    });

    it('says USER_INACTIVE for an inactive admin before asking for the master password', async () => {
      await createUser(s, { username: 'adminviejo', password: 'clave-admin-viejo', role: 'admin', status: 'inactive', masterPassword: 'maestra-vieja-1' });
      await expectApiError(await login(s, { username: 'adminviejo', password: 'clave-admin-viejo' }), 403, 'USER_INACTIVE', MSG.USER_INACTIVE);
    });

    it('lets the user in again once reactivated', async () => {
      await s.modules.auth.users.update(inactiveId, { status: 'active' });
      const res = await login(s, { username: 'inactivo01', password: 'clave-inactivo-1' });
      expect(res.status).toBe(200);
      await s.modules.auth.users.update(inactiveId, { status: 'inactive' });
      await expectApiError(await login(s, { username: 'inactivo01', password: 'clave-inactivo-1' }), 403, 'USER_INACTIVE', MSG.USER_INACTIVE);
    });

    it('makes a demo account inactive through the repository: 403 with its right password', async () => {
      const viewer = await s.modules.auth.users.findByUsername('viewer');
      await s.modules.auth.users.update(viewer!.id, { status: 'inactive' });
      try {
        await expectApiError(await login(s, DEMO_PASSWORDS.viewer), 403, 'USER_INACTIVE', MSG.USER_INACTIVE);
      } finally {
        await s.modules.auth.users.update(viewer!.id, { status: 'active' });
      }
      expect((await login(s, DEMO_PASSWORDS.viewer)).status).toBe(200);
    });
  });

  describe('4. master password of admin-role accounts', () => {
    it('answers an admin without master password with 401 MASTER_PASSWORD_REQUIRED', async () => {
      const res = await login(s, { username: 'admin', password: 'admin123' });
      const body = await expectApiError(res, 401, 'MASTER_PASSWORD_REQUIRED', MSG.MASTER_PASSWORD_REQUIRED);
      expect(body).toEqual({ error: MSG.MASTER_PASSWORD_REQUIRED, code: 'MASTER_PASSWORD_REQUIRED' });
      expect(res.headers.getSetCookie()).toEqual([]);
    });

    it('treats an empty master password as missing', async () => {
      await expectApiError(await login(s, { username: 'admin', password: 'admin123', masterPassword: '' }), 401, 'MASTER_PASSWORD_REQUIRED', MSG.MASTER_PASSWORD_REQUIRED);
    });

    it('answers a wrong master password with 401 MASTER_PASSWORD_INVALID', async () => {
      const res = await login(s, { username: 'admin', password: 'admin123', masterPassword: 'maestra2025' });
      const body = await expectApiError(res, 401, 'MASTER_PASSWORD_INVALID', MSG.MASTER_PASSWORD_INVALID);
      expect(body).toEqual({ error: MSG.MASTER_PASSWORD_INVALID, code: 'MASTER_PASSWORD_INVALID' });
      expect(res.headers.getSetCookie()).toEqual([]);
    });

    it('does not accept the account password as master password', async () => {
      await expectApiError(await login(s, { username: 'admin', password: 'admin123', masterPassword: 'admin123' }), 401, 'MASTER_PASSWORD_INVALID', MSG.MASTER_PASSWORD_INVALID);
    });

    it('asks the master password of every admin-role account, not only of "admin"', async () => {
      await createUser(s, { username: 'jefa', password: 'clave-de-jefa-1', role: 'admin', masterPassword: 'maestra-de-jefa' });
      await expectApiError(await login(s, { username: 'jefa', password: 'clave-de-jefa-1' }), 401, 'MASTER_PASSWORD_REQUIRED', MSG.MASTER_PASSWORD_REQUIRED);
      // Another admin's master password is not this one's.
      await expectApiError(
        await login(s, { username: 'jefa', password: 'clave-de-jefa-1', masterPassword: 'maestra2024' }),
        401,
        'MASTER_PASSWORD_INVALID',
        MSG.MASTER_PASSWORD_INVALID,
      );
      const ok = await login(s, { username: 'jefa', password: 'clave-de-jefa-1', masterPassword: 'maestra-de-jefa' });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as User).role).toBe('admin');
    });

    it('ignores a master password sent for a non-admin account', async () => {
      const res = await login(s, { ...DEMO_PASSWORDS.operator, masterPassword: 'whatever' });
      expect(res.status).toBe(200);
    });
  });

  describe('5. success', () => {
    it.each<DemoRole>(['admin', 'operator', 'viewer'])('signs in as %s: 200 User with the role permissions', async (role) => {
      const before = Date.now();
      const res = await login(s, DEMO_PASSWORDS[role]);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const user = (await res.json()) as User;
      expectUserShape(user, { username: role, role });
      expect(user.status).toBe('active');
      expect(user.mustChangePassword).toBe(false);
      expect(user.lastLogin).toMatch(ISO_Z);
      const lastLogin = Date.parse(user.lastLogin!);
      expect(lastLogin).toBeGreaterThanOrEqual(before - 1000);
      expect(lastLogin).toBeLessThanOrEqual(Date.now() + 1000);
      expect(JSON.stringify(user)).not.toMatch(/hash|argon|\$argon2/i);

      // The cookie works.
      const me = await s.fetch('/api/v1/auth/me', { cookie: sessionCookieOf(res) });
      expect(me.status).toBe(200);
      expect(((await me.json()) as User).id).toBe(user.id);
    });

    it('sets an httpOnly, SameSite=Strict, Path=/ session cookie without Secure on plain http', async () => {
      const res = await login(s, DEMO_PASSWORDS.viewer);
      expect(res.status).toBe(200);
      const cookies = res.headers.getSetCookie().filter((c) => c.startsWith('agua_session='));
      expect(cookies).toHaveLength(1);
      const attrs = cookies[0]!.split(';').map((p) => p.trim());
      const lower = attrs.map((a) => a.toLowerCase());
      expect(lower).toContain('httponly');
      expect(lower).toContain('samesite=strict');
      expect(lower).toContain('path=/');
      expect(lower).not.toContain('secure');
      const token = attrs[0]!.slice('agua_session='.length);
      expect(token.length).toBeGreaterThanOrEqual(32);
    });

    it('gives each sign-in its own random session token', async () => {
      const a = sessionCookieOf(await login(s, DEMO_PASSWORDS.operator));
      const b = sessionCookieOf(await login(s, DEMO_PASSWORDS.operator));
      expect(a).not.toBe(b);
    });

    it('does not store the token itself: the sessions table holds only its hash', async () => {
      const cookie = sessionCookieOf(await login(s, DEMO_PASSWORDS.operator));
      const token = cookie.slice('agua_session='.length);
      const rows = await sqlAll<{ id: string }>(s, 'SELECT id FROM sessions');
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.map((r) => r.id)).not.toContain(token);
    });

    it.each([
      ['ADMIN', 'admin'],
      ['Admin', 'admin'],
      ['VIEWER', 'viewer'],
      ['OpErAtOr', 'operator'],
    ])('treats the username case-insensitively (%s)', async (typed, stored) => {
      const creds = DEMO_PASSWORDS[stored as DemoRole];
      const res = await login(s, { ...creds, username: typed });
      expect(res.status).toBe(200);
      expect(((await res.json()) as User).username).toBe(stored);
    });
  });

  describe('bad bodies: 400 family with the envelope, never 500', () => {
    const cases: Array<[string, RequestInit & { json?: unknown }, number, string]> = [
      ['missing password', { json: { username: 'viewer' } }, 400, 'VALIDATION_FAILED'],
      ['missing username', { json: { password: 'viewer123' } }, 400, 'VALIDATION_FAILED'],
      ['empty object', { json: {} }, 400, 'VALIDATION_FAILED'],
      ['empty username', { json: { username: '', password: 'viewer123' } }, 400, 'VALIDATION_FAILED'],
      ['empty password', { json: { username: 'viewer', password: '' } }, 400, 'VALIDATION_FAILED'],
      ['JSON array', { json: [{ username: 'viewer', password: 'viewer123' }] }, 400, 'VALIDATION_FAILED'],
      ['JSON null', { json: null }, 400, 'VALIDATION_FAILED'],
      ['username as object', { json: { username: { $ne: '' }, password: 'viewer123' } }, 400, 'VALIDATION_FAILED'],
      ['username over 200 characters', { json: { username: 'u'.repeat(201), password: 'viewer123' } }, 400, 'VALIDATION_FAILED'],
      ['password over 1000 characters', { json: { username: 'viewer', password: 'p'.repeat(1001) } }, 400, 'VALIDATION_FAILED'],
      ['not JSON', { body: '{"username": "viewer", "password": ', headers: { 'content-type': 'application/json' } }, 400, 'INVALID_JSON'],
      ['empty JSON body', { body: '', headers: { 'content-type': 'application/json' } }, 400, 'INVALID_JSON'],
    ];
    it.each(cases)('%s', async (_name, init, status, code) => {
      const res = await s.fetch('/api/v1/auth/login', { method: 'POST', ...init });
      await expectApiError(res, status, code);
      expect(res.headers.getSetCookie()).toEqual([]);
    });

    it('answers no body at all with 400', async () => {
      const res = await s.fetch('/api/v1/auth/login', { method: 'POST' });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: expect.any(String), error: expect.any(String) });
    });

    it('answers a text/plain body with a 4xx envelope, not a sign-in', async () => {
      const res = await s.fetch('/api/v1/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify(DEMO_PASSWORDS.viewer),
      });
      expect([400, 415]).toContain(res.status);
      expect(await res.json()).toMatchObject({ code: expect.any(String), error: expect.any(String) });
      expect(res.headers.getSetCookie()).toEqual([]);
    });

    it('answers an oversized body (over the 256 KiB limit) with 413 PAYLOAD_TOO_LARGE', async () => {
      const res = await s.fetch('/api/v1/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'viewer', password: 'viewer123', pad: 'x'.repeat(300 * 1024) }),
      });
      await expectApiError(res, 413, 'PAYLOAD_TOO_LARGE');
    });

    it('keeps serving after all that', async () => {
      expect((await login(s, DEMO_PASSWORDS.viewer)).status).toBe(200);
      expect((await s.fetch('/api/health')).status).toBe(200);
    });
  });

  describe('public configuration', () => {
    it('GET /api/v1/config answers {demo, version, alarmShelveCritical, timezone, map} and nothing else', async () => {
      const res = await s.fetch('/api/v1/config');
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['alarmShelveCritical', 'demo', 'map', 'timezone', 'version']);
      expect(body.map).toEqual({ tileUrl: null, attribution: null });
      expect(body.timezone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
      expect(body.demo).toBe(true);
      expect(body.alarmShelveCritical).toBe('write');
      expect(typeof body.version).toBe('string');
    });
  });
});

describe('sign-in with COOKIE_SECURE=true', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ COOKIE_SECURE: 'true' });
  });
  afterAll(async () => s.close());

  it('marks the session cookie Secure (and still httpOnly, SameSite=Strict)', async () => {
    const res = await login(s, DEMO_PASSWORDS.operator);
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('agua_session='))!;
    const lower = cookie.split(';').map((p) => p.trim().toLowerCase());
    expect(lower).toContain('secure');
    expect(lower).toContain('httponly');
    expect(lower).toContain('samesite=strict');
  });
});
