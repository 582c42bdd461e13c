// docs/api.md "Rules for every route", bad input is 400 (shape): JSON bodies are validated as sent,
// never type-coerced (only the URL's strings are); and scripts that send Content-Type:
// application/json with no body on a bodyless route are answered as if they sent none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from '@agua/shared';
import { startServer, type TestServer } from './helpers/server';
import { GATE_1, GATE_2, LEVEL_1, gateMsg, getDevice, postTelemetry } from './helpers/protocol';
import { createDevice, expectApiError, jsonOf, login } from './helpers/api';

const ENV = { DEVICE_RATE_LIMIT: '0', LOGIN_MAX_FAILURES_PER_USER: '1000', LOGIN_MAX_FAILURES_PER_ADDRESS: '1000' };
const JSON_TYPE = { 'content-type': 'application/json' };

/** Asserts 400 VALIDATION_FAILED with the envelope of the error handler, naming `path` first. */
async function expectShapeError(res: Response, path?: string): Promise<void> {
  const body = await expectApiError(res, 400, 'VALIDATION_FAILED');
  expect(body.error).toBe(ERROR_MESSAGES.VALIDATION_FAILED);
  const details = body.details as Array<{ path: string; message: string }>;
  expect(Array.isArray(details)).toBe(true);
  if (path !== undefined) expect(details[0]?.path).toBe(path);
}

describe('request input', () => {
  let s: TestServer;
  let admin: string;
  let operator: string;
  beforeAll(async () => {
    s = await startServer(ENV);
    [admin, operator] = await Promise.all([s.login('admin'), s.login('operator')]);
  });
  afterAll(async () => s.close());

  const post = (path: string, cookie: string | undefined, json: unknown) => s.fetch(path, { method: 'POST', ...(cookie ? { cookie } : {}), json });

  describe('JSON bodies are validated as sent, never coerced', () => {
    it('a command that is not a string is 400 (shape), and nothing is issued', async () => {
      // Online, so that a coerced ["abrir"] would have been issued (202), and 5 refused as a value (422).
      expect((await postTelemetry(s, gateMsg(GATE_1, 'cerrada'))).status).toBe(202);
      const path = `/api/v1/devices/${GATE_1}/commands`;
      for (const command of [5, ['abrir'], true, null, { name: 'abrir' }]) {
        await expectShapeError(await post(path, operator, { command }), '/command');
      }
      const issued = await jsonOf<{ items: unknown[] }>(await s.fetch(`/api/v1/commands?deviceId=${GATE_1}`, { cookie: operator }));
      expect(issued).toEqual({ status: 200, body: { items: [], nextCursor: null } });
      expect((await getDevice(s, operator, GATE_1)).config.state).toBe('cerrada');

      // The same route with a string: it was the type, not the device, that refused the above.
      expect((await post(path, operator, { command: 'abrir' })).status).toBe(202);
    });

    it('a password that is not a string is 400, not a sign-in (nor a failed one)', async () => {
      await expectShapeError(await login(s, { username: 'admin', password: 5 as unknown as string }), '/password');
      // Coerced, ["operator123"] would be the right password and sign in.
      await expectShapeError(await login(s, { username: 'operator', password: ['operator123'] as unknown as string }), '/password');
      await expectShapeError(await post('/api/v1/auth/login', undefined, { username: 12345, password: 'operator123' }), '/username');
      expect((await login(s, { username: 'operator', password: 'operator123' })).status).toBe(200);
    });

    it('device config numbers must be JSON numbers and flags JSON booleans', async () => {
      const base = { name: 'Sensor', location: 'Tanque', type: 'level_sensor' };
      await expectShapeError(await post('/api/v1/devices', admin, { ...base, id: 'coercion_1', config: { maxLevel: '8' } }), '/config/maxLevel');
      await expectShapeError(await post('/api/v1/devices', admin, { ...base, id: 'coercion_2', config: { maxLevel: [8] } }), '/config/maxLevel');
      await expectShapeError(await post('/api/v1/devices', admin, { ...base, id: 'coercion_3', config: { maxLevel: 8, offlineAfterS: '30' } }));
      const listed = (await (await s.fetch('/api/v1/devices?include=retired', { cookie: admin })).json()) as Array<{ id: string }>;
      expect(listed.map((d) => d.id).filter((id) => id.startsWith('coercion_'))).toEqual([]);

      const patch = (body: unknown) => s.fetch(`/api/v1/devices/${LEVEL_1}`, { method: 'PATCH', cookie: admin, json: body });
      // Coerced, "false" would be 'Desconectar'.
      await expectShapeError(await patch({ enabled: 'false' }), '/enabled');
      await expectShapeError(await patch({ enabled: 0 }), '/enabled');
      await expectShapeError(await patch({ config: { warningPct: '50' } }), '/config/warningPct');
      const d = await getDevice(s, admin, LEVEL_1);
      expect(d.enabled).toBe(true);
      expect(d.config.warningPct).toBe(60);
    });

    it("the URL's strings are still coerced to the schema's types (query, params)", async () => {
      const page = await jsonOf<{ items: unknown[] }>(await s.fetch('/api/v1/commands?limit=1', { cookie: operator }));
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(1);
      await expectShapeError(await s.fetch('/api/v1/commands?limit=uno', { cookie: operator }));
      const { device } = await createDevice(s, admin, { id: 'coercion_purge', name: 'P', location: 'L', type: 'motorized_gate' });
      expect((await s.fetch(`/api/v1/devices/${device.id}?purge=true`, { method: 'DELETE', cookie: admin })).status).toBe(204);
      const all = (await (await s.fetch('/api/v1/devices?include=retired', { cookie: admin })).json()) as Array<{ id: string }>;
      expect(all.map((x) => x.id)).not.toContain('coercion_purge'); // purged, not merely retired
    });
  });

  describe('Content-Type: application/json with no body', () => {
    it('POST /auth/logout → 204 and the session ends; `{}` (what the web app sends) still works', async () => {
      const cookie = await s.login('viewer');
      const res = await s.fetch('/api/v1/auth/logout', { method: 'POST', cookie, headers: JSON_TYPE });
      expect(res.status).toBe(204);
      await expectApiError(await s.fetch('/api/v1/auth/me', { cookie }), 401);

      const other = await s.login('viewer');
      expect((await post('/api/v1/auth/logout', other, {})).status).toBe(204);
    });

    it('POST /devices/{id}/key → 200 {apiKey}, and the new key works', async () => {
      const res = await jsonOf<{ apiKey: string }>(await s.fetch(`/api/v1/devices/${GATE_2}/key`, { method: 'POST', cookie: admin, headers: JSON_TYPE }));
      expect(res.status).toBe(200);
      expect(typeof res.body.apiKey).toBe('string');
      expect((await postTelemetry(s, gateMsg(GATE_2, 'abierta'), { key: res.body.apiKey })).status).toBe(202);
    });

    it('DELETE of a device and of a user with an empty JSON body → 204', async () => {
      await createDevice(s, admin, { id: 'vacio_borrar', name: 'B', location: 'L', type: 'motorized_gate' });
      const del = await s.fetch('/api/v1/devices/vacio_borrar', { method: 'DELETE', cookie: admin, headers: JSON_TYPE, body: '' });
      expect(del.status).toBe(204);

      const created = await post('/api/v1/users', admin, { username: 'vacio', name: 'Vacío', email: 'vacio@test.example', role: 'viewer', password: 'temporal-123' });
      const { id } = (await created.json()) as { id: string };
      const gone = await s.fetch(`/api/v1/users/${id}`, { method: 'DELETE', cookie: admin, headers: JSON_TYPE, body: '' });
      expect(gone.status).toBe(204);
    });

    it('routes that take a body still refuse an empty one with 400', async () => {
      const empty = (path: string, cookie?: string, method = 'POST') => s.fetch(path, { method, headers: JSON_TYPE, body: '', ...(cookie ? { cookie } : {}) });
      await expectApiError(await empty('/api/v1/auth/login'), 400, 'INVALID_JSON');
      await expectApiError(await empty(`/api/v1/devices/${GATE_1}/commands`, operator), 400, 'INVALID_JSON');
      await expectApiError(await empty('/api/v1/devices', admin), 400, 'INVALID_JSON');
      await expectApiError(await empty(`/api/v1/devices/${LEVEL_1}`, admin, 'PATCH'), 400, 'INVALID_JSON');
      // docs/protocol.md: an empty telemetry body is "not JSON", a shape error.
      await expectApiError(await postTelemetry(s, null, { raw: '' }), 400, 'INVALID_JSON');
    });

    it('the body limit still holds on a bodyless route: over 256 KiB → 413', async () => {
      const cookie = await s.login('viewer');
      const big = JSON.stringify({ pad: 'x'.repeat(300 * 1024) });
      await expectApiError(await s.fetch('/api/v1/auth/logout', { method: 'POST', cookie, headers: JSON_TYPE, body: big }), 413, 'PAYLOAD_TOO_LARGE');
      expect((await s.fetch('/api/v1/auth/me', { cookie })).status).toBe(200);
    });
  });
});
