// Route guards, driven by the OpenAPI document: every documented route must be classified below,
// and every classified route is called anonymously, as each role, and from a foreign origin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@agua/shared';
import { sessionIdOf } from '../../src/features/auth/auth.service';
import { startServer, type DemoRole, type TestServer } from '../helpers/server';
import { createUser, MSG, tryLiveSocket } from './auth-helpers';
import { expectApiError, loginCookie } from '../helpers/api';
import { sqlRun } from '../helpers/sql';

/** Who may call a route (docs/api.md): 'admin' = role admin exactly (manage_users). */
type Required = 'public' | 'device' | 'session' | 'read' | 'write' | 'manage_devices' | 'admin';

/**
 * Every route of the API, keyed by 'METHOD path' with path parameters written `{}`.
 * A route in the OpenAPI document that is missing here fails the test: classify new routes.
 * Routes listed here but not (yet) in the document are ignored.
 */
const ROUTES: Record<string, Required> = {
  // public (docs/api.md "Public")
  'GET /api/health': 'public',
  'GET /api/v1/config': 'public',
  'POST /api/v1/auth/login': 'public',
  // any signed-in user
  'POST /api/v1/auth/logout': 'session',
  'GET /api/v1/auth/me': 'session',
  'POST /api/v1/auth/password': 'session',
  'GET /api/v1/auth/sessions': 'session',
  'DELETE /api/v1/auth/sessions/{}': 'session',
  'POST /api/v1/auth/totp/setup': 'session',
  'POST /api/v1/auth/totp/enable': 'session',
  'DELETE /api/v1/auth/totp': 'session',
  'GET /api/v1/settings': 'admin',
  'PATCH /api/v1/settings': 'admin',
  // read
  'GET /api/v1/devices': 'read',
  'GET /api/v1/devices/{}': 'read',
  'GET /api/v1/commands/{}': 'read',
  'GET /api/v1/commands': 'read',
  'GET /api/v1/devices/{}/readings': 'read',
  'GET /api/v1/export.xlsx': 'read',
  'GET /api/v1/export.csv': 'read',
  'GET /api/v1/live': 'read',
  'GET /api/v1/alarms': 'read',
  'GET /api/v1/alarms/{}': 'read',
  'GET /api/v1/alarms/stats': 'read',
  'GET /api/v1/export-alarms.xlsx': 'read',
  'GET /api/v1/export-alarms.csv': 'read',
  'GET /api/v1/devices/{}/alarm-rules': 'read',
  'GET /api/v1/devices/{}/geometry': 'read',
  'GET /api/v1/devices/{}/analytics': 'read',
  'GET /api/v1/devices/{}/daily': 'read',
  'GET /api/v1/overflow-events': 'read',
  'GET /api/v1/overflow-events/stats': 'read',
  'GET /api/v1/overflow-events/{}': 'read',
  'GET /api/v1/reports': 'read',
  'GET /api/v1/reports/{}': 'read',
  'GET /api/v1/report-runs': 'read',
  'GET /api/v1/report-runs/{}': 'read',
  'GET /api/v1/report-runs/{}/file': 'read',
  'GET /api/v1/interlocks': 'read',
  'GET /api/v1/interlocks/{}': 'read',
  'GET /api/v1/sites': 'read',
  'GET /api/v1/sites/{}': 'read',
  'GET /api/v1/sites/{}/synoptic': 'read',
  'GET /api/v1/sites/{}/synoptic/versions': 'read',
  'GET /api/v1/sites/{}/synoptic/versions/{}': 'read',
  'GET /api/v1/devices/{}/permissives': 'read',
  'GET /api/v1/schedules': 'read',
  'GET /api/v1/schedules/{}': 'read',
  'GET /api/v1/schedules/{}/preview': 'read',
  'GET /api/v1/schedules/{}/runs': 'read',
  // 'Mis notificaciones': every role
  'GET /api/v1/notifications/me': 'read',
  'PUT /api/v1/notifications/me': 'read',
  'POST /api/v1/notifications/me/push-subscriptions': 'read',
  'DELETE /api/v1/notifications/me/push-subscriptions': 'read',
  'POST /api/v1/notifications/me/test-push': 'read',
  // write
  'POST /api/v1/devices/{}/commands': 'write',
  'POST /api/v1/alarms/ack': 'write',
  'POST /api/v1/alarms/{}/ack': 'write',
  'POST /api/v1/alarms/{}/shelve': 'write',
  'POST /api/v1/alarms/{}/unshelve': 'write',
  'PATCH /api/v1/overflow-events/{}': 'write',
  'POST /api/v1/reports/{}/runs': 'write',
  'POST /api/v1/commands/{}/approve': 'write',
  'POST /api/v1/commands/{}/reject': 'write',
  // manage_devices
  'POST /api/v1/devices': 'manage_devices',
  'PATCH /api/v1/devices/{}': 'manage_devices',
  'POST /api/v1/devices/{}/key': 'manage_devices',
  'DELETE /api/v1/devices/{}': 'manage_devices',
  'POST /api/v1/reports': 'manage_devices',
  'PUT /api/v1/reports/{}': 'manage_devices',
  'DELETE /api/v1/reports/{}': 'manage_devices',
  'GET /api/v1/system/storage': 'manage_devices',
  'PUT /api/v1/devices/{}/alarm-rules/{}': 'manage_devices',
  'PUT /api/v1/devices/{}/geometry': 'manage_devices',
  'POST /api/v1/interlocks': 'manage_devices',
  'PATCH /api/v1/interlocks/{}': 'manage_devices',
  'DELETE /api/v1/interlocks/{}': 'manage_devices',
  'POST /api/v1/interlocks/{}/bypass': 'manage_devices',
  'DELETE /api/v1/interlocks/{}/bypass': 'manage_devices',
  'POST /api/v1/sites': 'manage_devices',
  'PATCH /api/v1/sites/{}': 'manage_devices',
  'DELETE /api/v1/sites/{}': 'manage_devices',
  'PUT /api/v1/sites/{}/synoptic': 'manage_devices',
  'POST /api/v1/schedules': 'manage_devices',
  'PATCH /api/v1/schedules/{}': 'manage_devices',
  'DELETE /api/v1/schedules/{}': 'manage_devices',
  // manage_users (role admin)
  'GET /api/v1/users': 'admin',
  'POST /api/v1/users': 'admin',
  'PATCH /api/v1/users/{}': 'admin',
  'DELETE /api/v1/users/{}': 'admin',
  'POST /api/v1/users/{}/password': 'admin',
  'DELETE /api/v1/users/{}/totp': 'admin',
  'GET /api/v1/audit': 'admin',
  'GET /api/v1/export-audit.csv': 'admin',
  'GET /api/v1/notifications': 'admin',
  'POST /api/v1/notifications/test-email': 'admin',
  'GET /api/v1/notifications/escalation': 'admin',
  'PUT /api/v1/notifications/escalation': 'admin',
  'GET /api/v1/webhooks': 'admin',
  'POST /api/v1/webhooks': 'admin',
  'PATCH /api/v1/webhooks/{}': 'admin',
  'DELETE /api/v1/webhooks/{}': 'admin',
  'POST /api/v1/webhooks/{}/test': 'admin',
  // device protocol (docs/protocol.md): device key, never a session
  'POST /api/v1/telemetry': 'device',
  'GET /api/v1/devices/{}/commands': 'device',
  'POST /api/v1/devices/{}/commands/{}/ack': 'device',
};

const PERMS: Record<DemoRole, string[]> = {
  admin: ['read', 'write', 'delete', 'manage_users', 'manage_devices'],
  operator: ['read', 'write'],
  viewer: ['read'],
};

function allowed(role: DemoRole, required: Required): boolean {
  if (required === 'session') return true;
  if (required === 'admin') return role === 'admin';
  if (required === 'public' || required === 'device') throw new Error('not a session route');
  return PERMS[role].includes(required);
}

interface Operation {
  method: string;
  path: string;
  key: string;
  security: Array<Record<string, string[]>> | undefined;
  responses: Record<string, unknown>;
}

const normalize = (path: string) => path.replace(/\{[^}]+\}/g, '{}');
const isDocsRoute = (path: string) => path === '/api/docs' || path.startsWith('/api/docs/');
const fill = (path: string, value = 'x') => path.replace(/\{[^}]+\}/g, value);
const hasBody = (method: string) => ['POST', 'PUT', 'PATCH'].includes(method);

function operationsOf(doc: { paths: Record<string, Record<string, { security?: Operation['security']; responses?: Record<string, unknown> }>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [m, op] of Object.entries(item)) {
      const method = m.toUpperCase();
      if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) continue;
      ops.push({ method, path, key: `${method} ${normalize(path)}`, security: op.security, responses: op.responses ?? {} });
    }
  }
  return ops;
}

const isDeviceSecurity = (sec: Operation['security']) => !!sec?.some((s) => 'deviceKey' in s || 'deviceBearer' in s);

describe('route guards from the OpenAPI document', () => {
  let s: TestServer;
  let ops: Operation[];
  let sessionOps: Operation[];
  const cookies = {} as Record<DemoRole, string>;

  beforeAll(async () => {
    s = await startServer({ LOGIN_MAX_FAILURES_PER_USER: '1000', LOGIN_MAX_FAILURES_PER_ADDRESS: '1000' });
    const res = await s.fetch('/api/docs/json');
    expect(res.status).toBe(200);
    ops = operationsOf((await res.json()) as Parameters<typeof operationsOf>[0]);
    sessionOps = ops.filter((o) => !isDocsRoute(o.path) && Array.isArray(o.security) && o.security.length > 0 && !isDeviceSecurity(o.security));
    for (const role of ['admin', 'operator', 'viewer'] as const) cookies[role] = await s.login(role);
  });
  afterAll(async () => s.close());

  /** A call of a documented operation with dummy path values and, for bodies, '{}'. */
  const call = (op: Operation, init: { cookie?: string; headers?: Record<string, string>; pathValue?: string } = {}) =>
    s.fetch(fill(op.path, init.pathValue), {
      method: op.method,
      ...(init.cookie ? { cookie: init.cookie } : {}),
      headers: { ...(hasBody(op.method) ? { 'content-type': 'application/json' } : {}), ...init.headers },
      ...(hasBody(op.method) ? { body: '{}' } : {}),
    });

  /** The role's cookie, signing in again if a call (a logout) ended the session. */
  async function cookieOf(role: DemoRole): Promise<string> {
    const me = await s.fetch('/api/v1/auth/me', { cookie: cookies[role] });
    if (me.status !== 200) cookies[role] = await s.login(role);
    return cookies[role];
  }

  it('serves the OpenAPI document at /api/docs/json and its page at /api/docs, publicly', async () => {
    const json = await s.fetch('/api/docs/json');
    expect(json.status).toBe(200);
    const doc = (await json.json()) as { openapi: string; paths: Record<string, unknown>; components: { securitySchemes: Record<string, unknown> } };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths).length).toBeGreaterThan(5);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['deviceBearer', 'deviceKey', 'session']);
    const page = await s.fetch('/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect((await page.text()).toLowerCase()).toContain('<html');
  });

  it('classifies every documented route in the table above (new routes must be added)', () => {
    const missing = ops.filter((o) => !isDocsRoute(o.path) && !(o.key in ROUTES)).map((o) => o.key);
    expect(missing, 'documented routes missing from ROUTES in route-guards.test.ts').toEqual([]);
  });

  it('declares security on every documented operation, matching the table', () => {
    const wrong: string[] = [];
    for (const op of ops) {
      if (isDocsRoute(op.path)) continue;
      const required = ROUTES[op.key];
      if (!required) continue; // reported by the previous test
      if (!Array.isArray(op.security)) wrong.push(`${op.key}: no security declared`);
      else if (required === 'public' && op.security.length !== 0) wrong.push(`${op.key}: public in the table, secured in the document`);
      else if (required === 'device' && !isDeviceSecurity(op.security)) wrong.push(`${op.key}: device route without deviceKey security`);
      else if (required !== 'public' && required !== 'device' && (op.security.length === 0 || isDeviceSecurity(op.security)))
        wrong.push(`${op.key}: needs a session, documented as ${JSON.stringify(op.security)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('has exactly the public routes of docs/api.md', () => {
    const pub = ops.filter((o) => !isDocsRoute(o.path) && Array.isArray(o.security) && o.security.length === 0).map((o) => o.key);
    expect(pub.sort()).toEqual(['GET /api/health', 'GET /api/v1/config', 'POST /api/v1/auth/login'].sort());
  });

  it('documents 401 on every session route and 403 where a permission is needed', () => {
    const wrong: string[] = [];
    for (const op of sessionOps) {
      if (!('401' in op.responses)) wrong.push(`${op.key}: 401 not documented`);
      const required = ROUTES[op.key];
      if (required && required !== 'session' && !('403' in op.responses)) wrong.push(`${op.key}: 403 not documented`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers 401 UNAUTHENTICATED to an anonymous call of every session route', async () => {
    expect(sessionOps.length).toBeGreaterThan(5);
    const wrong: string[] = [];
    for (const op of sessionOps) {
      const res = await call(op);
      const body = (await res.json().catch(() => null)) as { code?: string } | null;
      if (res.status !== 401 || body?.code !== 'UNAUTHENTICATED') wrong.push(`${op.key}: ${res.status} ${body?.code}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers 401 to a call with an expired session on every session route', async () => {
    const cookie = await s.login('admin');
    await sqlRun(s, 'UPDATE sessions SET last_used_ms = 0 WHERE id = ?', sessionIdOf(cookie.slice('agua_session='.length)));
    const wrong: string[] = [];
    for (const op of sessionOps) {
      const res = await call(op, { cookie });
      if (res.status !== 401) wrong.push(`${op.key}: ${res.status}`);
    }
    expect(wrong).toEqual([]);
  });

  it.each<DemoRole>(['viewer', 'operator', 'admin'])('gives %s 403 FORBIDDEN exactly where the role lacks the permission', async (role) => {
    const wrong: string[] = [];
    for (const op of sessionOps) {
      const required = ROUTES[op.key];
      if (!required) continue;
      const res = await call(op, { cookie: await cookieOf(role) });
      const text = await res.text();
      let code: string | undefined;
      try {
        code = (JSON.parse(text) as { code?: string }).code;
      } catch {
        code = undefined;
      }
      if (allowed(role, required)) {
        if (res.status === 401 || res.status === 403 || res.status >= 500) wrong.push(`${op.key}: expected access, got ${res.status} ${code ?? text.slice(0, 80)}`);
      } else if (res.status !== 403 || code !== 'FORBIDDEN') {
        wrong.push(`${op.key}: expected 403 FORBIDDEN (needs ${required}), got ${res.status} ${code ?? text.slice(0, 80)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('refuses a session alone (401) on every device route', async () => {
    const deviceOps = ops.filter((o) => isDeviceSecurity(o.security));
    expect(deviceOps.map((o) => o.key)).toContain('POST /api/v1/telemetry');
    const wrong: string[] = [];
    for (const op of deviceOps) {
      for (const pathValue of ['x', 'esp32_nivel_01']) {
        const res = await call(op, { cookie: await cookieOf('admin'), pathValue });
        if (res.status !== 401) wrong.push(`${op.key} (${pathValue}): ${res.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('refuses every state-changing session route from a foreign Origin with 403 CSRF_REJECTED', async () => {
    const wrong: string[] = [];
    for (const op of sessionOps.filter((o) => o.method !== 'GET')) {
      const res = await call(op, { cookie: await cookieOf('admin'), headers: { origin: 'http://evil.example' } });
      const body = (await res.json().catch(() => null)) as { code?: string } | null;
      if (res.status !== 403 || body?.code !== 'CSRF_REJECTED') wrong.push(`${op.key}: ${res.status} ${body?.code}`);
    }
    expect(wrong).toEqual([]);
    // The refused logout did not end the session.
    expect((await s.fetch('/api/v1/auth/me', { cookie: cookies.admin })).status).toBe(200);
  });

  it('refuses a viewer\'s well-formed command with 403 FORBIDDEN, and sends nothing', async () => {
    const res = await s.fetch('/api/v1/devices/esp32_compuerta_01/commands', { method: 'POST', cookie: await cookieOf('viewer'), json: { command: 'abrir' } });
    await expectApiError(res, 403, 'FORBIDDEN');
  });

  it('answers the public routes without a session', async () => {
    for (const key of ['GET /api/health', 'GET /api/v1/config']) {
      const op = ops.find((o) => o.key === key)!;
      expect((await call(op)).status, key).toBe(200);
    }
  });

  describe('the live socket GET /api/v1/live', () => {
    it('is described in the OpenAPI document (docs/api.md: the API is described there)', () => {
      expect(ops.map((o) => o.key)).toContain('GET /api/v1/live');
    });

    it('answers a plain anonymous GET with 401', async () => {
      await expectApiError(await s.fetch('/api/v1/live'), 401, 'UNAUTHENTICATED');
    });

    it('refuses an anonymous WebSocket upgrade with 401', async () => {
      const out = await tryLiveSocket(s);
      expect(out.opened).toBe(false);
      if (!out.opened) {
        expect(out.status).toBe(401);
        expect(JSON.parse(out.body)).toMatchObject({ code: 'UNAUTHENTICATED' });
      }
    });

    it('refuses an upgrade with a garbage or expired session cookie with 401', async () => {
      const garbage = await tryLiveSocket(s, { cookie: 'agua_session=garbage' });
      expect(garbage).toMatchObject({ opened: false, status: 401 });
      const cookie = await s.login('viewer');
      await sqlRun(s, 'UPDATE sessions SET last_used_ms = 0 WHERE id = ?', sessionIdOf(cookie.slice('agua_session='.length)));
      expect(await tryLiveSocket(s, { cookie })).toMatchObject({ opened: false, status: 401 });
    });

    it.each<DemoRole>(['viewer', 'operator', 'admin'])('opens for %s (read) and sends hello with the user', async (role) => {
      const out = await tryLiveSocket(s, { cookie: await cookieOf(role) });
      expect(out.opened).toBe(true);
      if (out.opened) {
        expect(out.firstFrame.type).toBe('hello');
        expect((out.firstFrame.data as { user: User }).user.role).toBe(role);
      }
    });

    it('gives no live socket to a user who must change the password (403 PASSWORD_CHANGE_REQUIRED)', async () => {
      await createUser(s, { username: 'livepending', password: 'temporal-live-1', mustChangePassword: true });
      const cookie = await loginCookie(s, { username: 'livepending', password: 'temporal-live-1' });
      const out = await tryLiveSocket(s, { cookie });
      expect(out.opened).toBe(false);
      if (!out.opened) {
        expect(out.status).toBe(403);
        expect(JSON.parse(out.body)).toEqual({ error: MSG.PASSWORD_CHANGE_REQUIRED, code: 'PASSWORD_CHANGE_REQUIRED' });
      }
    });
  });
});
