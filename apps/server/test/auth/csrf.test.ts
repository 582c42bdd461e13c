// CSRF (docs/api.md "Rules for every route"): Origin must be the addressed origin or an ALLOWED_ORIGINS one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@agua/shared';
import { DEMO_PASSWORDS, demoKey, startServer, type TestServer } from '../helpers/server';
import { createUser, MSG, tryLiveSocket } from './auth-helpers';
import { expectApiError, login, loginCookie } from '../helpers/api';
import { sqlValue } from '../helpers/sql';

const CSRF_MSG = 'Origen de la solicitud no permitido.';
const EVIL = 'http://evil.example';

async function expectCsrfRejected(res: Response): Promise<void> {
  const body = await expectApiError(res, 403, 'CSRF_REJECTED', CSRF_MSG);
  expect(body).toEqual({ error: CSRF_MSG, code: 'CSRF_REJECTED' });
  expect(res.headers.getSetCookie()).toEqual([]);
}

describe('CSRF with the default configuration', () => {
  let s: TestServer;
  let port: string;
  beforeAll(async () => {
    s = await startServer({ LOGIN_MAX_FAILURES_PER_USER: '1000', LOGIN_MAX_FAILURES_PER_ADDRESS: '1000' });
    port = new URL(s.url).port;
  });
  afterAll(async () => s.close());

  describe('POST /api/v1/auth/login', () => {
    it('refuses a foreign Origin with 403 CSRF_REJECTED, even with the right credentials', async () => {
      await expectCsrfRejected(await login(s, DEMO_PASSWORDS.viewer, { origin: EVIL }));
    });

    it('refuses Origin "null" (sandboxed frames, data: URLs)', async () => {
      await expectCsrfRejected(await login(s, DEMO_PASSWORDS.viewer, { origin: 'null' }));
    });

    it.each([
      ['the same host on another port', () => `http://127.0.0.1:${Number(port) === 65535 ? 65534 : Number(port) + 1}`],
      ['the same host and port over https', () => `https://127.0.0.1:${port}`],
      ['another name for the same machine', () => `http://localhost:${port}`],
      ['the host without its port', () => 'http://127.0.0.1'],
      ['a look-alike suffix', () => `http://127.0.0.1:${port}.evil.example`],
      ['an ALLOWED_ORIGINS value of another installation', () => 'https://agua.example.org'],
    ])('refuses %s', async (_name, origin) => {
      await expectCsrfRejected(await login(s, DEMO_PASSWORDS.viewer, { origin: origin() }));
    });

    it('gives the normal answer with the server\'s own origin', async () => {
      const ok = await login(s, DEMO_PASSWORDS.viewer, { origin: s.url });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as User).username).toBe('viewer');
      await expectApiError(await login(s, { username: 'viewer', password: 'wrong-pass-1' }, { origin: s.url }), 401, 'INVALID_CREDENTIALS', MSG.INVALID_CREDENTIALS);
    });

    it('gives the normal answer without Origin (scripts, curl)', async () => {
      expect((await login(s, DEMO_PASSWORDS.operator)).status).toBe(200);
      await expectApiError(await login(s, { username: 'operator', password: 'wrong-pass-1' }), 401, 'INVALID_CREDENTIALS');
    });

    it('does not count a CSRF refusal as a failed sign-in', async () => {
      const before = Number(await sqlValue(s, "SELECT COUNT(*) AS n FROM login_failures WHERE username = 'operator'"));
      for (let i = 0; i < 3; i++) await expectCsrfRejected(await login(s, { username: 'operator', password: 'wrong-pass-2' }, { origin: EVIL }));
      const after = Number(await sqlValue(s, "SELECT COUNT(*) AS n FROM login_failures WHERE username = 'operator'"));
      expect(after).toBe(before);
    });
  });

  describe('signed-in state-changing routes', () => {
    it('refuses a logout from a foreign Origin and the session stays alive', async () => {
      const cookie = await s.login('viewer');
      await expectCsrfRejected(await s.fetch('/api/v1/auth/logout', { method: 'POST', cookie, headers: { origin: EVIL } }));
      expect((await s.fetch('/api/v1/auth/me', { cookie })).status).toBe(200);
      expect((await s.fetch('/api/v1/auth/logout', { method: 'POST', cookie, headers: { origin: s.url } })).status).toBe(204);
    });

    it('refuses a password change from a foreign Origin and the password stays', async () => {
      await createUser(s, { username: 'csrfvictim', password: 'clave-victima-1' });
      const cookie = await loginCookie(s, { username: 'csrfvictim', password: 'clave-victima-1' });
      for (const origin of [EVIL, 'null']) {
        await expectCsrfRejected(
          await s.fetch('/api/v1/auth/password', {
            method: 'POST',
            cookie,
            headers: { origin },
            json: { currentPassword: 'clave-victima-1', newPassword: 'clave-del-atacante' },
          }),
        );
      }
      expect((await login(s, { username: 'csrfvictim', password: 'clave-victima-1' })).status).toBe(200);
      expect((await login(s, { username: 'csrfvictim', password: 'clave-del-atacante' })).status).toBe(401);
    });
  });

  describe('safe methods', () => {
    it('does not refuse GET requests with a foreign Origin', async () => {
      const cookie = await s.login('viewer');
      const me = await s.fetch('/api/v1/auth/me', { cookie, headers: { origin: EVIL } });
      expect(me.status).toBe(200);
      const devices = await s.fetch('/api/v1/devices', { cookie, headers: { origin: 'null' } });
      expect(devices.status).toBe(200);
      expect((await s.fetch('/api/v1/config', { headers: { origin: EVIL } })).status).toBe(200);
      expect((await s.fetch('/api/health', { headers: { origin: EVIL } })).status).toBe(200);
    });
  });

  describe('device routes (key-based) are exempt', () => {
    const message = { deviceId: 'esp32_nivel_01', type: 'level_sensor', data: { value: 3.42, unit: 'm' } };

    it('accepts telemetry with a valid key from a foreign Origin', async () => {
      const res = await s.fetch('/api/v1/telemetry', { method: 'POST', headers: { origin: EVIL, 'x-api-key': demoKey('esp32_nivel_01') }, json: message });
      const body = (await res.json()) as { code?: string; accepted?: number };
      expect(body.code).not.toBe('CSRF_REJECTED');
      expect(res.status).toBe(202);
      expect(body.accepted).toBe(1);
    });

    it('judges a keyless device request by its key (401), not by its Origin', async () => {
      const res = await s.fetch('/api/v1/telemetry', { method: 'POST', headers: { origin: 'null' }, json: message });
      const body = (await res.json()) as { code?: string };
      expect(res.status).toBe(401);
      expect(body.code).not.toBe('CSRF_REJECTED');
    });
  });

  describe('WebSocket upgrade of /api/v1/live', () => {
    it('refuses an upgrade from a foreign Origin with 403, even with a valid session', async () => {
      const cookie = await s.login('viewer');
      for (const origin of [EVIL, 'null']) {
        const out = await tryLiveSocket(s, { cookie, origin });
        expect(out.opened, origin).toBe(false);
        if (!out.opened) {
          expect(out.status).toBe(403);
          expect(JSON.parse(out.body)).toMatchObject({ code: 'CSRF_REJECTED' });
        }
      }
    });

    it('opens with the server\'s own Origin and sends hello first', async () => {
      const cookie = await s.login('viewer');
      const out = await tryLiveSocket(s, { cookie, origin: s.url });
      expect(out.opened).toBe(true);
      if (out.opened) {
        expect(out.firstFrame.type).toBe('hello');
        expect((out.firstFrame.data as { user: User }).user.username).toBe('viewer');
      }
    });

    it('opens without Origin (non-browser clients)', async () => {
      const cookie = await s.login('viewer');
      const out = await tryLiveSocket(s, { cookie });
      expect(out.opened).toBe(true);
    });
  });
});

describe('CSRF with ALLOWED_ORIGINS', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ ALLOWED_ORIGINS: 'https://agua.example.org/, https://scada.example.net:8443' });
  });
  afterAll(async () => s.close());

  it.each(['https://agua.example.org', 'https://scada.example.net:8443'])('lets %s through', async (origin) => {
    const res = await login(s, DEMO_PASSWORDS.viewer, { origin });
    expect(res.status).toBe(200);
  });

  it('still lets the server\'s own origin through', async () => {
    expect((await login(s, DEMO_PASSWORDS.viewer, { origin: s.url })).status).toBe(200);
  });

  it.each([
    'http://agua.example.org',
    'https://agua.example.org:444',
    'https://agua.example.org.evil.example',
    'https://sub.agua.example.org',
    'https://scada.example.net',
    EVIL,
    'null',
  ])('still refuses %s', async (origin) => {
    await expectCsrfRejected(await login(s, DEMO_PASSWORDS.viewer, { origin }));
  });

  it('lets a WebSocket upgrade from an allowed origin open', async () => {
    const cookie = await s.login('viewer');
    const out = await tryLiveSocket(s, { cookie, origin: 'https://agua.example.org' });
    expect(out.opened).toBe(true);
  });
});
