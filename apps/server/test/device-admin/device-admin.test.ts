// docs/api.md device administration (manage_devices) and docs/product.md 'Conectar' / 'Desconectar':
// create, edit, enable/disable, rotate the key, retire and purge — with real devices on HTTP/MQTT.
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoKey, startServer, type TestServer } from '../helpers/server';
import {
  GATE_1,
  GATE_2,
  LEVEL_1,
  LEVEL_2,
  connectDevice,
  countReadings,
  endClient,
  gateMsg,
  getDevice,
  levelMsg,
  postTelemetry,
  sleep,
  waitFor,
} from '../helpers/protocol';
import { ISO_Z, ackHttp, auditPage, createDevice, expectApiError, issueCommand, issueOk, jsonOf, longPoll, type AuditEvent } from '../helpers/api';
import { sqlGet } from '../helpers/sql';

const clients: MqttClient[] = [];
async function mqttDevice(s: TestServer, id: string, key = demoKey(id)): Promise<MqttClient> {
  const c = await connectDevice(s, id, { password: key });
  clients.push(c);
  return c;
}
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => endClient(c, true)));
});

/** Resolves when the server closes the client's connection (it does not reconnect). */
function closedByServer(c: MqttClient): Promise<void> {
  return new Promise((resolve) => {
    if (!c.connected) return resolve();
    c.once('close', () => resolve());
  });
}

/** Tries an MQTT CONNECT; resolves with the refusal's code, or 'connected'. */
function tryConnect(s: TestServer, id: string, key: string): Promise<number | string> {
  return new Promise((resolve) => {
    const c = mqtt.connect(s.mqttUrl, { protocolVersion: 4, clientId: id, username: id, password: key, reconnectPeriod: 0, connectTimeout: 4000 });
    c.once('connect', () => {
      c.end(true);
      resolve('connected');
    });
    c.once('error', (err: Error & { code?: number }) => {
      c.end(true);
      resolve(err.code ?? err.message);
    });
    c.once('close', () => resolve('closed'));
  });
}
const NOT_AUTHORIZED = 5;

const patch = (s: TestServer, cookie: string, id: string, body: unknown) =>
  s.fetch(`/api/v1/devices/${encodeURIComponent(id)}`, { method: 'PATCH', cookie, json: body });

const listIds = async (s: TestServer, cookie: string, retired = false) => {
  const res = await s.fetch(`/api/v1/devices${retired ? '?include=retired' : ''}`, { cookie });
  expect(res.status).toBe(200);
  return ((await res.json()) as Array<{ id: string; enabled: boolean; status: string }>);
};

const auditOf = async (s: TestServer, admin: string, deviceId: string, action: string): Promise<AuditEvent[]> =>
  (await auditPage(s, admin, { deviceId, action }));

describe('device administration', () => {
  let s: TestServer;
  let admin: string;
  let operator: string;
  let viewer: string;
  beforeAll(async () => {
    s = await startServer({ DEVICE_RATE_LIMIT: '0', DEVICE_OFFLINE_AFTER_S: '60' });
    [admin, operator, viewer] = await Promise.all([s.login('admin'), s.login('operator'), s.login('viewer')]);
  });
  afterAll(async () => s.close());

  describe("'Desconectar' / 'Conectar'", () => {
    it('disabling closes the open MQTT session, refuses its reconnect and its HTTP calls, and shows it offline', async () => {
      const c = await mqttDevice(s, GATE_2);
      await waitFor(async () => (await getDevice(s, operator, GATE_2)).status === 'online');
      const closed = closedByServer(c);

      const res = await patch(s, admin, GATE_2, { enabled: false });
      const { status, body } = await jsonOf(res);
      expect(status).toBe(200);
      expect(body).toMatchObject({ id: GATE_2, enabled: false, status: 'offline' });

      const t = Date.now();
      await closed;
      expect(Date.now() - t).toBeLessThan(2000);
      expect(await tryConnect(s, GATE_2, demoKey(GATE_2))).toBe(NOT_AUTHORIZED);

      await expectApiError(await postTelemetry(s, gateMsg(GATE_2, 'cerrada')), 403, 'DEVICE_DISABLED');
      await expectApiError(await longPoll(s, GATE_2, { wait: '0' }), 403, 'DEVICE_DISABLED');
      // Offline by the next tick of the offline check (1 s), seen as soon as it happens.
      const offline = (await waitFor(async () => {
        const d = await getDevice(s, viewer, GATE_2);
        return d.status === 'offline' ? d : null;
      }, 1100, 50))!;
      expect(offline).toMatchObject({ enabled: false, status: 'offline' });
      await expectApiError(await issueCommand(s, operator, GATE_2, 'abrir'), 409, 'DEVICE_OFFLINE');

      const disabled = await auditOf(s, admin, GATE_2, 'device.disabled');
      expect(disabled).toHaveLength(1);
      expect(disabled[0]).toMatchObject({ target: `device:${GATE_2}`, result: 'ok', username: 'admin' });

      // Conectar: enabled again, online once it talks again.
      const on = await jsonOf(await patch(s, admin, GATE_2, { enabled: true }));
      expect(on.status).toBe(200);
      expect(on.body).toMatchObject({ enabled: true, status: 'offline' });
      await mqttDevice(s, GATE_2);
      await waitFor(async () => (await getDevice(s, viewer, GATE_2)).status === 'online', 2000);
      const enabled = await auditOf(s, admin, GATE_2, 'device.enabled');
      expect(enabled).toHaveLength(1);
      expect(enabled[0]).toMatchObject({ target: `device:${GATE_2}`, result: 'ok', username: 'admin' });
    });

    it('an HTTP device re-enabled is shown offline ("Desconectado") until it talks again', async () => {
      expect((await postTelemetry(s, levelMsg(LEVEL_1, 2))).status).toBe(202);
      expect((await getDevice(s, viewer, LEVEL_1)).status).toBe('online');
      expect((await patch(s, admin, LEVEL_1, { enabled: false })).status).toBe(200);
      await expectApiError(await postTelemetry(s, levelMsg(LEVEL_1, 2)), 403, 'DEVICE_DISABLED');

      const on = await jsonOf(await patch(s, admin, LEVEL_1, { enabled: true }));
      expect(on.status).toBe(200);
      expect(on.body.enabled).toBe(true);
      // docs/product.md: "shown 'Desconectado' until it is enabled and talks again".
      expect(on.body.status, 'online right after Conectar, before the device talked again').toBe('offline');
      expect((await getDevice(s, viewer, LEVEL_1)).status).toBe('offline');
      await expectApiError(await issueCommand(s, operator, LEVEL_1, 'read'), 409, 'DEVICE_OFFLINE');

      expect((await postTelemetry(s, levelMsg(LEVEL_1, 2.1))).status).toBe(202);
      expect((await getDevice(s, viewer, LEVEL_1)).status).toBe('online');
    });

    it('disabling ends a long poll the device holds; re-enabled, it stays offline until it talks again', async () => {
      expect((await getDevice(s, viewer, 'esp32_nivel_02')).status).toBe('offline'); // never heard yet
      const abort = new AbortController();
      const poll = longPoll(s, LEVEL_2, { wait: '20', signal: abort.signal }).then(
        async (r) => ({ status: r.status, body: await r.text() }),
        () => ({ status: 0, body: 'aborted' }),
      );
      await waitFor(async () => (await getDevice(s, viewer, LEVEL_2)).status === 'online');
      expect((await patch(s, admin, LEVEL_2, { enabled: false })).status).toBe(200);
      const ended = await Promise.race([poll, sleep(2000).then(() => null)]);
      abort.abort();
      expect(ended, 'long poll of a disabled device still held open 2 s after Desconectar').not.toBeNull();

      expect((await patch(s, admin, LEVEL_2, { enabled: true })).status).toBe(200);
      expect((await getDevice(s, viewer, LEVEL_2)).status, 'online after Conectar although it has not talked again').toBe('offline');
      expect((await postTelemetry(s, levelMsg(LEVEL_2, 1))).status).toBe(202);
      expect((await getDevice(s, viewer, LEVEL_2)).status).toBe('online');
    });

    it('operator and viewer may not PATCH (403), nor create, rotate or delete; without a session 401', async () => {
      for (const cookie of [operator, viewer]) {
        await expectApiError(await patch(s, cookie, GATE_1, { enabled: false }), 403);
        await expectApiError(await patch(s, cookie, GATE_1, { name: 'X' }), 403);
        await expectApiError(await s.fetch('/api/v1/devices', { method: 'POST', cookie, json: { id: 'x_nope', name: 'N', location: 'L', type: 'motorized_gate' } }), 403);
        await expectApiError(await s.fetch(`/api/v1/devices/${GATE_1}/key`, { method: 'POST', cookie }), 403);
        await expectApiError(await s.fetch(`/api/v1/devices/${GATE_1}`, { method: 'DELETE', cookie }), 403);
      }
      await expectApiError(await s.fetch(`/api/v1/devices/${GATE_1}`, { method: 'PATCH', json: { enabled: false } }), 401);
      const g = await getDevice(s, viewer, GATE_1);
      expect(g.enabled).toBe(true);
      expect((g as unknown as { name: string }).name).toBe('Compuerta Canal A');
      expect((await listIds(s, admin)).map((d) => d.id)).not.toContain('x_nope');
      expect(await auditOf(s, admin, GATE_1, 'device.disabled')).toHaveLength(0);
      expect((await postTelemetry(s, gateMsg(GATE_1, 'cerrada'))).status).toBe(202); // its key still works
    });

    it('PATCH edits name, location and config (audited as device.updated); bad values 400/422; unknown id 404', async () => {
      const res = await jsonOf(await patch(s, admin, LEVEL_2, { name: 'Tanque Norte', location: 'Cerro', config: { maxLevel: 6, warningPct: 50, criticalPct: 80 } }));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: 'Tanque Norte', location: 'Cerro', config: { maxLevel: 6, unit: 'm', warningPct: 50, criticalPct: 80 } });
      expect(await getDevice(s, viewer, LEVEL_2)).toMatchObject({ config: { maxLevel: 6, warningPct: 50, criticalPct: 80 } });

      await expectApiError(await patch(s, admin, LEVEL_2, { config: { warningPct: 90 } }), 422); // 90 ≥ 80
      await expectApiError(await patch(s, admin, LEVEL_2, { config: { criticalPct: 50 } }), 422); // 50 ≥ 50
      await expectApiError(await patch(s, admin, LEVEL_2, { config: { maxLevel: -1 } }), 400);
      await expectApiError(await patch(s, admin, LEVEL_2, { bogus: 1 }), 400);
      await expectApiError(await patch(s, admin, LEVEL_2, { name: '' }), 400);
      await expectApiError(await patch(s, admin, 'no_such_device', { name: 'X' }), 404);
      expect(await getDevice(s, viewer, LEVEL_2)).toMatchObject({ name: 'Tanque Norte', config: { maxLevel: 6, warningPct: 50, criticalPct: 80 } });

      const updated = await auditOf(s, admin, LEVEL_2, 'device.updated');
      expect(updated).toHaveLength(1);
      expect(updated[0]).toMatchObject({ result: 'ok', username: 'admin', target: `device:${LEVEL_2}` });
      expect(updated[0]!.details?.fields).toEqual(expect.arrayContaining(['name', 'location', 'config']));
    });
  });

  describe('create', () => {
    it('POST → 201 {device, apiKey}; the key works over HTTP and MQTT; audited as device.created', async () => {
      const res = await s.fetch('/api/v1/devices', {
        method: 'POST',
        cookie: admin,
        json: { id: 'nivel_nuevo', name: 'Sensor Nuevo', location: 'Tanque 3', type: 'level_sensor', waterType: 'clean', config: { maxLevel: 4 } },
      });
      const { status, body } = await jsonOf<{ device: Record<string, unknown>; apiKey: string }>(res);
      expect(status).toBe(201);
      expect(Object.keys(body).sort()).toEqual(['apiKey', 'device']);
      expect(body.device).toMatchObject({
        id: 'nivel_nuevo',
        name: 'Sensor Nuevo',
        location: 'Tanque 3',
        type: 'level_sensor',
        waterType: 'clean',
        status: 'offline',
        enabled: true,
        lastSeen: null,
        lastCommand: null,
        reading: null,
        config: { maxLevel: 4, unit: 'm', warningPct: 60, criticalPct: 85, offlineAfterS: 60 },
      });
      expect(typeof body.apiKey).toBe('string');
      expect(body.apiKey.length).toBeGreaterThanOrEqual(22); // ≥ 128 bits of randomness
      expect(JSON.stringify(body.device)).not.toContain(body.apiKey);

      const t = await postTelemetry(s, levelMsg('nivel_nuevo', 3.5), { key: body.apiKey });
      expect(t.status).toBe(202);
      const d = await getDevice(s, viewer, 'nivel_nuevo');
      expect(d).toMatchObject({ status: 'online', reading: { value: 3.5, unit: 'm', status: 'critical' } }); // 3.5 > 85 % of 4
      expect(d.lastSeen).toMatch(ISO_Z);
      const c = await mqttDevice(s, 'nivel_nuevo', body.apiKey);
      expect(c.connected).toBe(true);
      // Its key is its own: another device's key is refused for it.
      await expectApiError(await postTelemetry(s, levelMsg('nivel_nuevo', 1), { key: demoKey(LEVEL_1) }), 403);
      expect(await tryConnect(s, 'nivel_nuevo', demoKey(LEVEL_1))).toBe(NOT_AUTHORIZED);

      const created = await auditOf(s, admin, 'nivel_nuevo', 'device.created');
      expect(created).toHaveLength(1);
      expect(created[0]).toMatchObject({ result: 'ok', username: 'admin', target: 'device:nivel_nuevo' });
      expect(JSON.stringify(created)).not.toContain(body.apiKey);
    });

    it('a gate with defaults; the key is never shown again', async () => {
      const { device, apiKey } = await createDevice(s, admin, { id: 'compuerta_nueva', name: 'Compuerta Nueva', location: 'Canal B', type: 'motorized_gate' });
      expect(device).toMatchObject({ type: 'motorized_gate', waterType: null, config: { state: null, travelTimeoutS: 120, offlineAfterS: 60 } });
      const list = await s.fetch('/api/v1/devices', { cookie: admin });
      expect(await list.text()).not.toContain(apiKey);
    });

    it('refusals: taken id 409, bad id 400, level sensor without maxLevel 422, warningPct ≥ criticalPct 422', async () => {
      const base = { name: 'N', location: 'L' };
      const post = (body: unknown) => s.fetch('/api/v1/devices', { method: 'POST', cookie: admin, json: body });
      await expectApiError(await post({ ...base, id: GATE_1, type: 'motorized_gate' }), 409);
      await expectApiError(await post({ ...base, id: LEVEL_1, type: 'level_sensor', config: { maxLevel: 3 } }), 409);
      for (const id of ['A B', 'AB_upper', 'ab', 'x'.repeat(65), 'a/b', '']) {
        const r = await post({ ...base, id, type: 'motorized_gate' });
        expect({ id, status: r.status }).toEqual({ id, status: 400 });
      }
      await expectApiError(await post({ ...base, id: 'sin_max', type: 'level_sensor' }), 422);
      await expectApiError(await post({ ...base, id: 'sin_max', type: 'level_sensor', config: { warningPct: 50 } }), 422);
      await expectApiError(await post({ ...base, id: 'umbral_igual', type: 'level_sensor', config: { maxLevel: 5, warningPct: 70, criticalPct: 70 } }), 422);
      await expectApiError(await post({ ...base, id: 'umbral_mal', type: 'level_sensor', config: { maxLevel: 5, warningPct: 90 } }), 422); // 90 ≥ 85
      await expectApiError(await post({ ...base, id: 'tipo_mal', type: 'pump' }), 400);
      await expectApiError(await post({ ...base, id: 'sin_nombre', type: 'motorized_gate', name: '   ' }), 400);
      await expectApiError(await post({ ...base, id: 'cfg_extra', type: 'motorized_gate', config: { speed: 3 } }), 400);

      const ids = (await listIds(s, admin, true)).map((d) => d.id);
      for (const id of ['sin_max', 'umbral_igual', 'umbral_mal', 'tipo_mal', 'sin_nombre', 'cfg_extra']) expect(ids).not.toContain(id);
    });
  });

  describe('config as GET shows it', () => {
    const storedSettings = async (id: string): Promise<unknown> => {
      const row = (await sqlGet<{ config_json: unknown }>(s, 'SELECT config_json FROM devices WHERE id = ?', id))!;
      // Text holding JSON (a JSON column may arrive parsed already).
      return typeof row.config_json === 'string' ? JSON.parse(row.config_json) : row.config_json;
    };

    it("PATCH with the config GET returned → 200 and the same config; a gate's state is never changed by the API", async () => {
      await createDevice(s, admin, { id: 'nivel_eco', name: 'Eco', location: 'L', type: 'level_sensor', config: { maxLevel: 7 } });
      const gate = await createDevice(s, admin, { id: 'compuerta_eco', name: 'Eco', location: 'L', type: 'motorized_gate' });
      expect((await postTelemetry(s, gateMsg('compuerta_eco', 'abierta'), { key: gate.apiKey })).status).toBe(202);

      for (const id of ['nivel_eco', 'compuerta_eco']) {
        const { config } = await getDevice(s, viewer, id);
        const res = await jsonOf(await patch(s, admin, id, { config }));
        expect({ id, status: res.status }).toEqual({ id, status: 200 });
        expect(res.body.config).toEqual(config);
        expect((await getDevice(s, viewer, id)).config).toEqual(config);
      }
      expect((await getDevice(s, viewer, 'compuerta_eco')).config.state).toBe('abierta');

      // Another state in the config is ignored, as is a null one (a gate never heard from).
      for (const state of ['cerrada', 'falla', null]) {
        const res = await jsonOf(await patch(s, admin, 'compuerta_eco', { config: { state, travelTimeoutS: 90 } }));
        expect(res.status).toBe(200);
        expect(res.body.config).toMatchObject({ state: 'abierta', travelTimeoutS: 90 });
      }
      expect(s.modules.devices.service.get('compuerta_eco')?.gateState).toBe('abierta');

      // Neither echoed field is stored as a setting.
      expect(await storedSettings('nivel_eco')).toEqual({ maxLevel: 7, warningPct: 60, criticalPct: 85, offlineAfterS: 60, readingIntervalS: 3 });
      expect(await storedSettings('compuerta_eco')).toEqual({ travelTimeoutS: 90, offlineAfterS: 60 });
    });

    it('POST accepts unit "m" (and a state, ignored); another unit or an unknown state is 400', async () => {
      const base = { name: 'N', location: 'L' };
      const post = (body: unknown) => s.fetch('/api/v1/devices', { method: 'POST', cookie: admin, json: body });
      const level = await jsonOf(await post({ ...base, id: 'nivel_unidad', type: 'level_sensor', config: { maxLevel: 3, unit: 'm' } }));
      expect(level.status).toBe(201);
      expect(level.body.device.config).toMatchObject({ maxLevel: 3, unit: 'm' });
      const gate = await jsonOf(await post({ ...base, id: 'compuerta_estado', type: 'motorized_gate', config: { state: 'abierta', travelTimeoutS: 60 } }));
      expect(gate.status).toBe(201);
      expect(gate.body.device.config).toMatchObject({ state: null, travelTimeoutS: 60 });
      expect(await storedSettings('compuerta_estado')).toEqual({ travelTimeoutS: 60 });

      await expectApiError(await post({ ...base, id: 'nivel_pies', type: 'level_sensor', config: { maxLevel: 3, unit: 'ft' } }), 400, 'VALIDATION_FAILED');
      await expectApiError(await post({ ...base, id: 'compuerta_rara', type: 'motorized_gate', config: { state: 'volando' } }), 400, 'VALIDATION_FAILED');
      await expectApiError(await patch(s, admin, 'nivel_unidad', { config: { unit: 'cm' } }), 400, 'VALIDATION_FAILED');
      const ids = (await listIds(s, admin, true)).map((d) => d.id);
      expect(ids).not.toContain('nivel_pies');
      expect(ids).not.toContain('compuerta_rara');
    });
  });

  describe('rotate the key', () => {
    it('POST /key → 200 {apiKey}; the old key fails at once (HTTP and MQTT), its session is closed; the new one works', async () => {
      const c = await mqttDevice(s, GATE_1);
      const closed = closedByServer(c);
      const res = await jsonOf<{ apiKey: string }>(await s.fetch(`/api/v1/devices/${GATE_1}/key`, { method: 'POST', cookie: admin }));
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['apiKey']);
      expect(res.body.apiKey).not.toBe(demoKey(GATE_1));
      expect(res.body.apiKey.length).toBeGreaterThanOrEqual(22);

      await expectApiError(await postTelemetry(s, gateMsg(GATE_1, 'cerrada'), { key: demoKey(GATE_1) }), 401);
      await expectApiError(await longPoll(s, GATE_1, { wait: '0', key: demoKey(GATE_1) }), 401);
      const t = Date.now();
      await closed;
      expect(Date.now() - t).toBeLessThan(2000);
      expect(await tryConnect(s, GATE_1, demoKey(GATE_1))).toBe(NOT_AUTHORIZED);

      expect((await postTelemetry(s, gateMsg(GATE_1, 'abierta'), { key: res.body.apiKey })).status).toBe(202);
      expect(await getDevice(s, viewer, GATE_1)).toMatchObject({ enabled: true, status: 'online', config: { state: 'abierta' } });
      expect(await tryConnect(s, GATE_1, res.body.apiKey)).toBe('connected');

      // A second rotation kills the first new key too.
      const again = await jsonOf<{ apiKey: string }>(await s.fetch(`/api/v1/devices/${GATE_1}/key`, { method: 'POST', cookie: admin }));
      expect(again.status).toBe(200);
      await expectApiError(await postTelemetry(s, gateMsg(GATE_1, 'abierta'), { key: res.body.apiKey }), 401);
      expect((await postTelemetry(s, gateMsg(GATE_1, 'abierta'), { key: again.body.apiKey })).status).toBe(202);

      // A long poll held with the old key ends: a command issued after the rotation never reaches it.
      const abort = new AbortController();
      const oldPoll = longPoll(s, GATE_1, { wait: '20', key: again.body.apiKey, signal: abort.signal }).then(
        async (r) => ({ status: r.status, body: await r.text() }),
        () => ({ status: 0, body: 'aborted' }),
      );
      await sleep(200);
      const third = await jsonOf<{ apiKey: string }>(await s.fetch(`/api/v1/devices/${GATE_1}/key`, { method: 'POST', cookie: admin }));
      expect(third.status).toBe(200);
      const commandId = await issueOk(s, operator, GATE_1, 'cerrar');
      const got = await Promise.race([oldPoll, sleep(2000).then(() => ({ status: -1, body: 'still open' }))]);
      abort.abort();
      expect(got.body, 'a command issued after the key rotation was handed to a long poll made with the old key').not.toContain(commandId);
      expect(got.status, 'the long poll made with the old key is still open 2 s after the rotation').not.toBe(-1);
      const fresh = await jsonOf<Array<{ id: string }>>(await longPoll(s, GATE_1, { wait: '0', key: third.body.apiKey }));
      expect(fresh.body.map((c) => c.id)).toEqual([commandId]);
      expect((await ackHttp(s, GATE_1, commandId, { success: true, state: 'cerrando' }, { key: third.body.apiKey })).status).toBe(200);
      again.body.apiKey = third.body.apiKey;

      const rotated = await auditOf(s, admin, GATE_1, 'device.key_rotated');
      expect(rotated).toHaveLength(3);
      expect(rotated[0]).toMatchObject({ result: 'ok', username: 'admin', target: `device:${GATE_1}` });
      expect(JSON.stringify(rotated)).not.toContain(again.body.apiKey);
      await expectApiError(await s.fetch('/api/v1/devices/no_such_device/key', { method: 'POST', cookie: admin }), 404);
    });
  });

  describe('delete (retire) and purge', () => {
    it('DELETE retires: gone from the list, in ?include=retired, key dead, session closed, history kept, 404 for commands/PATCH, id never reused', async () => {
      const { apiKey } = await createDevice(s, admin, { id: 'nivel_retiro', name: 'Retiro', location: 'L', type: 'level_sensor', config: { maxLevel: 10 } });
      expect((await postTelemetry(s, [levelMsg('nivel_retiro', 1, { ts: new Date(Date.now() - 60_000).toISOString() }), levelMsg('nivel_retiro', 2)], { key: apiKey })).status).toBe(202);
      expect(await countReadings(s, 'nivel_retiro')).toBe(2);
      const commandId = await issueOk(s, operator, 'nivel_retiro', 'read');
      const c = await mqttDevice(s, 'nivel_retiro', apiKey);
      const closed = closedByServer(c);

      const del = await s.fetch('/api/v1/devices/nivel_retiro', { method: 'DELETE', cookie: admin });
      expect(del.status).toBe(204);
      expect(await del.text()).toBe('');
      await closed;

      expect((await listIds(s, viewer)).map((d) => d.id)).not.toContain('nivel_retiro');
      const retired = (await listIds(s, viewer, true)).find((d) => d.id === 'nivel_retiro');
      expect(retired).toMatchObject({ enabled: false, status: 'offline' });

      await expectApiError(await postTelemetry(s, levelMsg('nivel_retiro', 3), { key: apiKey }), 401);
      expect(await tryConnect(s, 'nivel_retiro', apiKey)).toBe(NOT_AUTHORIZED);
      await expectApiError(await issueCommand(s, operator, 'nivel_retiro', 'read'), 404);
      await expectApiError(await patch(s, admin, 'nivel_retiro', { enabled: true }), 404);
      await expectApiError(await patch(s, admin, 'nivel_retiro', { name: 'Otra vez' }), 404);
      await expectApiError(await s.fetch('/api/v1/devices/nivel_retiro/key', { method: 'POST', cookie: admin }), 404);
      await expectApiError(await s.fetch('/api/v1/devices/nivel_retiro', { method: 'DELETE', cookie: admin }), 404);
      await expectApiError(await s.fetch('/api/v1/devices', { method: 'POST', cookie: admin, json: { id: 'nivel_retiro', name: 'N', location: 'L', type: 'level_sensor', config: { maxLevel: 3 } } }), 409);

      // History kept and readable (regulators need it): readings and commands.
      expect(await countReadings(s, 'nivel_retiro')).toBe(2);
      const readings = await jsonOf<{ items: unknown[] }>(await s.fetch('/api/v1/devices/nivel_retiro/readings', { cookie: viewer }));
      expect(readings.status).toBe(200);
      expect(readings.body.items).toHaveLength(2);
      const cmds = await jsonOf<{ items: Array<{ id: string }> }>(await s.fetch('/api/v1/commands?deviceId=nivel_retiro', { cookie: viewer }));
      expect(cmds.body.items.map((x) => x.id)).toEqual([commandId]);

      const deleted = await auditOf(s, admin, 'nivel_retiro', 'device.deleted');
      expect(deleted).toHaveLength(1);
      expect(deleted[0]).toMatchObject({ result: 'ok', username: 'admin', target: 'device:nivel_retiro', details: { purge: false } });

      // --- purge: the id becomes unknown everywhere, and may be used again.
      const purge = await s.fetch('/api/v1/devices/nivel_retiro?purge=true', { method: 'DELETE', cookie: admin });
      expect(purge.status).toBe(204);
      expect((await listIds(s, admin, true)).map((d) => d.id)).not.toContain('nivel_retiro');
      expect(await countReadings(s, 'nivel_retiro')).toBe(0);
      await expectApiError(await s.fetch('/api/v1/devices/nivel_retiro/readings', { cookie: viewer }), 404);
      await expectApiError(await s.fetch('/api/v1/commands?deviceId=nivel_retiro', { cookie: viewer }), 404, 'DEVICE_NOT_FOUND');
      await expectApiError(await s.fetch(`/api/v1/commands/${commandId}`, { cookie: viewer }), 404);
      await expectApiError(await issueCommand(s, operator, 'nivel_retiro', 'read'), 404);
      await expectApiError(await patch(s, admin, 'nivel_retiro', { name: 'X' }), 404);
      await expectApiError(await s.fetch('/api/v1/devices/nivel_retiro?purge=true', { method: 'DELETE', cookie: admin }), 404);

      const again = await createDevice(s, admin, { id: 'nivel_retiro', name: 'Retiro 2', location: 'L', type: 'level_sensor', config: { maxLevel: 5 } });
      expect(again.device).toMatchObject({ id: 'nivel_retiro', name: 'Retiro 2', enabled: true, lastSeen: null, lastCommand: null, reading: null });
      await expectApiError(await postTelemetry(s, levelMsg('nivel_retiro', 1), { key: apiKey }), 401); // the old key stays dead
      expect((await postTelemetry(s, levelMsg('nivel_retiro', 1), { key: again.apiKey })).status).toBe(202);
      expect(await countReadings(s, 'nivel_retiro')).toBe(1);

      // The audit trail survives the purge (append-only).
      const trail = await auditPage(s, admin, { deviceId: 'nivel_retiro' });
      const actions = trail.map((e) => e.action);
      expect(actions.filter((a) => a === 'device.created')).toHaveLength(2);
      expect(actions.filter((a) => a === 'device.deleted')).toHaveLength(2);
      expect(trail.find((e) => e.action === 'device.deleted' && e.details?.purge === true)).toBeTruthy();
      expect(actions).toContain('command.issued');
    });

    it('purging an active device at once removes it and its history', async () => {
      const { apiKey } = await createDevice(s, admin, { id: 'compuerta_purga', name: 'P', location: 'L', type: 'motorized_gate' });
      expect((await postTelemetry(s, gateMsg('compuerta_purga', 'cerrada'), { key: apiKey })).status).toBe(202);
      expect((await postTelemetry(s, gateMsg('compuerta_purga', 'falla'), { key: apiKey })).status).toBe(202);
      expect(await countReadings(s, 'compuerta_purga')).toBe(2);
      const alarmsOf = async () => (await jsonOf<{ items: Array<{ kind: string; state: string }> }>(await s.fetch('/api/v1/alarms?deviceId=compuerta_purga', { cookie: viewer }))).body.items;
      await waitFor(async () => (await alarmsOf()).some((a) => a.kind === 'gate_fault' && a.state === 'unack'), 5000);
      expect((await s.fetch('/api/v1/devices/compuerta_purga?purge=true', { method: 'DELETE', cookie: admin })).status).toBe(204);
      expect((await listIds(s, admin, true)).map((d) => d.id)).not.toContain('compuerta_purga');
      expect(await countReadings(s, 'compuerta_purga')).toBe(0);
      await expectApiError(await postTelemetry(s, gateMsg('compuerta_purga', 'cerrada'), { key: apiKey }), 401);
      await createDevice(s, admin, { id: 'compuerta_purga', name: 'P2', location: 'L', type: 'motorized_gate' });
      // The new device with the same id inherits no alarm of the purged one, open or past.
      expect(await alarmsOf()).toEqual([]);
      const openIds = (await jsonOf<{ items: Array<{ deviceId: string }> }>(await s.fetch('/api/v1/alarms?state=open', { cookie: viewer }))).body.items.map((a) => a.deviceId);
      expect(openIds).not.toContain('compuerta_purga');
      await expectApiError(await s.fetch('/api/v1/devices/no_such_device', { method: 'DELETE', cookie: admin }), 404);
      await expectApiError(await s.fetch(`/api/v1/devices/${GATE_2}?purge=maybe`, { method: 'DELETE', cookie: admin }), 400);
      expect((await listIds(s, admin)).map((d) => d.id)).toContain(GATE_2);
    });
  });
});
