// docs/protocol.md "MQTT" with real mqtt.js clients (MQTT 3.1.1) against the embedded broker.
import type { MqttClient } from 'mqtt';
import mqtt from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from '@agua/shared';
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
  publishQos1,
  setEnabled,
  sleep,
  subscribeCodes,
  waitFor,
} from '../helpers/protocol';

const topic = (id: string, leaf: string) => `agua/v1/${id}/${leaf}`;

/** Collects JSON messages of a topic. */
function collect(client: MqttClient, t: string): Array<Record<string, unknown>> {
  const got: Array<Record<string, unknown>> = [];
  client.on('message', (mt, payload) => {
    if (mt === t) got.push(JSON.parse(payload.toString()) as Record<string, unknown>);
  });
  return got;
}

/** Tries to connect and resolves with the refusal (or null when it connected). */
async function refusal(s: TestServer, opts: Parameters<typeof mqtt.connect>[1]): Promise<{ code: unknown; message: string } | null> {
  return new Promise((resolve) => {
    const client = mqtt.connect(s.mqttUrl, { protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 5000, ...opts });
    client.once('connect', () => {
      client.end(true);
      resolve(null);
    });
    client.once('error', (err: Error & { code?: unknown }) => {
      client.end(true);
      resolve({ code: err.code, message: err.message });
    });
    client.once('close', () => resolve({ code: 'closed', message: 'closed without CONNACK' }));
  });
}

const clients: MqttClient[] = [];
async function device(s: TestServer, id: string, opts: Parameters<typeof connectDevice>[2] = {}) {
  const c = await connectDevice(s, id, opts);
  clients.push(c);
  return c;
}
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => endClient(c, true)));
});

describe('MQTT broker (no rate limit, DEVICE_OFFLINE_AFTER_S=300)', () => {
  let s: TestServer;
  let cookie: string;
  beforeAll(async () => {
    s = await startServer({ DEVICE_RATE_LIMIT: '0', DEVICE_OFFLINE_AFTER_S: '300' });
    cookie = await s.login('viewer');
  });
  afterAll(async () => s.close());

  describe('CONNECT', () => {
    it('client id = username = deviceId and the right key → connected', async () => {
      const c = await device(s, LEVEL_1);
      expect(c.connected).toBe(true);
    });

    it.each([
      ['a wrong key', { clientId: LEVEL_1, username: LEVEL_1, password: 'demo-key-wrong' }],
      ["another device's key", { clientId: LEVEL_1, username: LEVEL_1, password: demoKey(LEVEL_2) }],
      ['an unknown device', { clientId: 'esp32_fantasma', username: 'esp32_fantasma', password: demoKey('esp32_fantasma') }],
      ['a client id other than the username', { clientId: 'esp32_otro', username: LEVEL_1, password: demoKey(LEVEL_1) }],
      ['a client id of another device', { clientId: LEVEL_2, username: LEVEL_1, password: demoKey(LEVEL_1) }],
      ['no password', { clientId: LEVEL_1, username: LEVEL_1 }],
      ['neither username nor password', { clientId: LEVEL_1 }],
    ])('%s → CONNACK "not authorized" (return code 5)', async (_name, opts) => {
      const r = await refusal(s, opts);
      expect(r).not.toBeNull();
      expect(r!.code).toBe(5);
      expect(r!.message).toMatch(/not authorized/i);
    });

    it('a refused CONNECT does not make the device online nor touch lastSeen', async () => {
      const before = await getDevice(s, cookie, LEVEL_2);
      await refusal(s, { clientId: LEVEL_2, username: LEVEL_2, password: 'nope' });
      const after = await getDevice(s, cookie, LEVEL_2);
      expect(after.status).toBe(before.status);
      expect(after.lastSeen).toBe(before.lastSeen);
    });

    it('a disabled device is refused at CONNECT; enabled again it connects', async () => {
      setEnabled(s, GATE_2, false);
      try {
        const r = await refusal(s, { clientId: GATE_2, username: GATE_2, password: demoKey(GATE_2) });
        expect(r?.code).toBe(5);
      } finally {
        setEnabled(s, GATE_2, true);
      }
      const c = await device(s, GATE_2);
      expect(c.connected).toBe(true);
    });
  });

  describe('telemetry', () => {
    it('QoS 1: the PUBACK arrives only after the reading is stored and current', async () => {
      const c = await device(s, LEVEL_1);
      for (const value of [3.141, 7.777, 9.001]) {
        const before = await countReadings(s, LEVEL_1);
        const seen = await new Promise<{ count: number; reading: unknown }>((resolve, reject) => {
          c.publish(topic(LEVEL_1, 'telemetry'), JSON.stringify(levelMsg(LEVEL_1, value)), { qos: 1 }, (err) => {
            if (err) return reject(err);
            // At once, in the PUBACK callback: the row and the current reading are there (the count
            // query starts here, before any later write could add the row).
            const reading = s.modules.devices.service.getApi(LEVEL_1)?.reading;
            countReadings(s, LEVEL_1).then((count) => resolve({ count, reading }), reject);
          });
        });
        expect(seen.count).toBe(before + 1);
        expect(seen.reading).toMatchObject({ value, unit: 'm' });
      }
      expect((await getDevice(s, cookie, LEVEL_1)).reading).toMatchObject({ value: 9.001, status: 'critical' });
    });

    it('QoS 0 telemetry is accepted too (without the PUBACK promise)', async () => {
      const c = await device(s, LEVEL_1);
      const before = await countReadings(s, LEVEL_1);
      c.publish(topic(LEVEL_1, 'telemetry'), JSON.stringify(levelMsg(LEVEL_1, 0.42)), { qos: 0 });
      await waitFor(async () => (await countReadings(s, LEVEL_1)) === before + 1, 2000);
      await waitFor(() => s.modules.devices.service.getApi(LEVEL_1)?.reading?.value === 0.42, 2000);
    });

    it('a batch (array) over MQTT is stored whole; dedupe by (boot, seq) applies too', async () => {
      const c = await device(s, LEVEL_1);
      const before = await countReadings(s, LEVEL_1);
      const t0 = Date.now() - 60_000;
      const batch = Array.from({ length: 20 }, (_, i) => levelMsg(LEVEL_1, 2, { ts: t0 + i, seq: i, boot: 'mq' }));
      await publishQos1(c, topic(LEVEL_1, 'telemetry'), batch);
      expect(await countReadings(s, LEVEL_1)).toBe(before + 20);
      await publishQos1(c, topic(LEVEL_1, 'telemetry'), batch); // resent after a lost PUBACK
      expect(await countReadings(s, LEVEL_1)).toBe(before + 20);
    });

    it('a refused message is PUBACKed, not stored, the connection stays open, and {error, code, details} arrives on …/errors', async () => {
      const c = await device(s, LEVEL_2);
      expect(await subscribeCodes(c, topic(LEVEL_2, 'errors'))).toEqual([1]);
      const errors = collect(c, topic(LEVEL_2, 'errors'));
      const before = await countReadings(s, LEVEL_2);

      await publishQos1(c, topic(LEVEL_2, 'telemetry'), levelMsg(LEVEL_2, null));
      await waitFor(() => errors.length >= 1, 2000);
      expect(errors[0]).toEqual({ error: ERROR_MESSAGES.VALUE_INVALID, code: 'VALUE_INVALID', details: { field: 'data.value' } });

      await publishQos1(c, topic(LEVEL_2, 'telemetry'), '{not json');
      await waitFor(() => errors.length >= 2, 2000);
      expect(errors[1]).toMatchObject({ code: 'INVALID_JSON', error: ERROR_MESSAGES.INVALID_JSON });

      await publishQos1(c, topic(LEVEL_2, 'telemetry'), [levelMsg(LEVEL_2, 1), levelMsg(LEVEL_2, 1, { ts: 1_700_000_000 })]);
      await waitFor(() => errors.length >= 3, 2000);
      expect(errors[2]).toMatchObject({ code: 'TS_LOOKS_LIKE_SECONDS', details: { index: 1, field: 'ts' } });

      await publishQos1(c, topic(LEVEL_2, 'telemetry'), levelMsg(LEVEL_1, 1));
      await waitFor(() => errors.length >= 4, 2000);
      expect(errors[3]).toMatchObject({ code: 'DEVICE_ID_MISMATCH' });

      await publishQos1(c, topic(LEVEL_2, 'telemetry'), { deviceId: LEVEL_2, type: 'level_sensor' });
      await waitFor(() => errors.length >= 5, 2000);
      expect(errors[4]).toMatchObject({ code: 'MESSAGE_INVALID' });

      await publishQos1(c, topic(LEVEL_2, 'telemetry'), levelMsg(LEVEL_2, 1, { ts: '0001-01-01T00:00:00Z' }));
      await waitFor(() => errors.length >= 6, 2000);
      expect(errors[5]).toMatchObject({ code: 'TS_TOO_OLD', error: ERROR_MESSAGES.TS_TOO_OLD, details: { field: 'ts' } });

      expect(await countReadings(s, LEVEL_2)).toBe(before);
      expect(c.connected).toBe(true);
      // Still usable: a good message is stored.
      await publishQos1(c, topic(LEVEL_2, 'telemetry'), levelMsg(LEVEL_2, 2.5));
      expect(await countReadings(s, LEVEL_2)).toBe(before + 1);
      for (const e of errors) for (const k of Object.keys(e)) expect(['error', 'code', 'details']).toContain(k);
    });

    it('a payload over 256 KiB is refused with 413 on …/errors, not stored', async () => {
      const c = await device(s, LEVEL_2);
      await subscribeCodes(c, topic(LEVEL_2, 'errors'));
      const errors = collect(c, topic(LEVEL_2, 'errors'));
      const before = await countReadings(s, LEVEL_2);
      await publishQos1(c, topic(LEVEL_2, 'telemetry'), levelMsg(LEVEL_2, 1, { pad: 'x'.repeat(300 * 1024) }));
      await waitFor(() => errors.length >= 1, 2000);
      expect(errors[0]).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
      expect(await countReadings(s, LEVEL_2)).toBe(before);
      expect(c.connected).toBe(true);
    });

    it('a device disabled while connected: its next publish is not stored', async () => {
      const c = await device(s, GATE_1);
      await subscribeCodes(c, topic(GATE_1, 'errors'));
      const errors = collect(c, topic(GATE_1, 'errors'));
      const before = await countReadings(s, GATE_1);
      setEnabled(s, GATE_1, false);
      try {
        // Either the session is cut or the message is refused: never stored.
        await Promise.race([publishQos1(c, topic(GATE_1, 'telemetry'), gateMsg(GATE_1, 'abierta')).catch(() => undefined), sleep(1500)]);
        await sleep(100);
        expect(await countReadings(s, GATE_1)).toBe(before);
        if (c.connected) expect(errors[0]).toMatchObject({ code: 'DEVICE_DISABLED' });
      } finally {
        setEnabled(s, GATE_1, true);
      }
    });
  });

  describe('topic rules', () => {
    it("subscribing to another device's topic → SUBACK failure (128); own topics are granted", async () => {
      const c = await device(s, LEVEL_1);
      expect(await subscribeCodes(c, topic(LEVEL_2, 'commands'))).toEqual([128]);
      expect(await subscribeCodes(c, topic(LEVEL_2, 'errors'))).toEqual([128]);
      expect(await subscribeCodes(c, 'agua/v1/#')).toEqual([128]);
      expect(await subscribeCodes(c, 'agua/v1/+/telemetry')).toEqual([128]);
      expect(await subscribeCodes(c, '#')).toEqual([128]);
      expect(await subscribeCodes(c, topic(LEVEL_1, 'commands'))).toEqual([1]);
      expect(c.connected).toBe(true);
    });

    it("a subscription elsewhere receives nothing: another device's errors stay private", async () => {
      const spy = await device(s, LEVEL_1);
      await subscribeCodes(spy, topic(LEVEL_2, 'errors'));
      const leaked = collect(spy, topic(LEVEL_2, 'errors'));
      const victim = await device(s, LEVEL_2);
      await publishQos1(victim, topic(LEVEL_2, 'telemetry'), levelMsg(LEVEL_2, null));
      await sleep(300);
      expect(leaked).toEqual([]);
    });

    it("publishing to another device's topic closes the connection and stores nothing", async () => {
      const c = await device(s, LEVEL_1);
      const before = await countReadings(s, LEVEL_2);
      const closed = new Promise<void>((resolve) => c.once('close', () => resolve()));
      c.publish(topic(LEVEL_2, 'telemetry'), JSON.stringify(levelMsg(LEVEL_2, 1)), { qos: 1 });
      await Promise.race([closed, sleep(3000).then(() => Promise.reject(new Error('connection not closed within 3 s')))]);
      expect(c.connected).toBe(false);
      expect(await countReadings(s, LEVEL_2)).toBe(before);
    });

    it('publishing outside agua/v1/ closes the connection too', async () => {
      const c = await device(s, LEVEL_1);
      const closed = new Promise<void>((resolve) => c.once('close', () => resolve()));
      c.publish('otro/tema', 'hola', { qos: 0 });
      await Promise.race([closed, sleep(3000).then(() => Promise.reject(new Error('connection not closed within 3 s')))]);
    });
  });
});

describe('MQTT sessions and online/offline (DEVICE_OFFLINE_AFTER_S=300)', () => {
  let s: TestServer;
  let cookie: string;
  beforeAll(async () => {
    s = await startServer({ DEVICE_RATE_LIMIT: '0', DEVICE_OFFLINE_AFTER_S: '300' });
    cookie = await s.login('viewer');
  });
  afterAll(async () => s.close());

  it('a device is online as soon as its CONNECT is accepted, without any reading', async () => {
    expect((await getDevice(s, cookie, GATE_1)).status).toBe('offline');
    await device(s, GATE_1, { will: { topic: topic(GATE_1, 'status'), payload: Buffer.from('offline'), qos: 1, retain: true } });
    const d = await getDevice(s, cookie, GATE_1);
    expect(d.status).toBe('online');
    expect(d.reading).toBeNull();
    expect(d.lastSeen).not.toBeNull();
  });

  it('an abrupt end (socket destroyed) publishes the retained last will', async () => {
    const c = await device(s, GATE_1, { will: { topic: topic(GATE_1, 'status'), payload: Buffer.from('offline'), qos: 1, retain: true } });
    // As the protocol asks: "online", retained, after connecting; the will must replace it.
    await new Promise<void>((resolve, reject) =>
      c.publish(topic(GATE_1, 'status'), 'online', { qos: 1, retain: true }, (err) => (err ? reject(err) : resolve())),
    );
    c.stream.destroy();
    await sleep(300);
    // The device itself, back again, finds "offline" retained on its status topic.
    const back = await device(s, GATE_1);
    const got: string[] = [];
    back.on('message', (t, p) => t === topic(GATE_1, 'status') && got.push(p.toString()));
    expect(await subscribeCodes(back, topic(GATE_1, 'status'))).toEqual([1]);
    await waitFor(() => got.length > 0, 2000);
    expect(got[0]).toBe('offline');
  });

  it('PROTOCOL: an abrupt end (last will) turns the device offline at once (within ~2 s)', async () => {
    const c = await device(s, GATE_2, { will: { topic: topic(GATE_2, 'status'), payload: Buffer.from('offline'), qos: 1, retain: true } });
    expect((await getDevice(s, cookie, GATE_2)).status).toBe('online');
    c.stream.destroy();
    const went = await waitFor(async () => (await getDevice(s, cookie, GATE_2)).status === 'offline', 2000, 100).then(
      () => true,
      () => false,
    );
    expect(went, 'device still online 2 s after its MQTT session ended abruptly (docs/protocol.md: "turns offline at once")').toBe(true);
  });

  it('PROTOCOL: a clean DISCONNECT turns the device offline at once', async () => {
    const c = await connectDevice(s, LEVEL_2);
    expect((await getDevice(s, cookie, LEVEL_2)).status).toBe('online');
    await endClient(c, false);
    const went = await waitFor(async () => (await getDevice(s, cookie, LEVEL_2)).status === 'offline', 1500, 100).then(
      () => true,
      () => false,
    );
    expect(went, 'device still online after a clean DISCONNECT (docs/protocol.md: "turns offline at once")').toBe(true);
  });

  it('after its session ended, the device comes back online when heard again (HTTP reading or new CONNECT)', async () => {
    const c = await connectDevice(s, LEVEL_2);
    await endClient(c, false);
    await waitFor(async () => (await getDevice(s, cookie, LEVEL_2)).status === 'offline', 1500, 50);
    const res = await fetch(`${s.url}/api/v1/telemetry`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': demoKey(LEVEL_2) },
      body: JSON.stringify(levelMsg(LEVEL_2, 1.23)),
    });
    expect(res.status).toBe(202);
    expect((await getDevice(s, cookie, LEVEL_2)).status).toBe('online');

    const again = await connectDevice(s, LEVEL_2);
    await endClient(again, true); // abrupt
    await waitFor(async () => (await getDevice(s, cookie, LEVEL_2)).status === 'offline', 2000, 50);
    await device(s, LEVEL_2);
    expect((await getDevice(s, cookie, LEVEL_2)).status).toBe('online');
  });

  it('a reconnect (same client id) replaces the session: the device stays online throughout, never shown offline', async () => {
    const first = await connectDevice(s, LEVEL_1);
    const statuses: string[] = [];
    const off = s.modules.bus.on('device.updated', (d) => {
      if (d.id === LEVEL_1) statuses.push(d.status);
    });
    const firstClosed = new Promise<void>((resolve) => first.once('close', () => resolve()));
    const second = await device(s, LEVEL_1);
    await firstClosed; // the broker drops the older session with the same client id
    first.end(true);
    await sleep(200);
    off();
    expect(second.connected).toBe(true);
    expect(statuses).not.toContain('offline');
    expect((await getDevice(s, cookie, LEVEL_1)).status).toBe('online');
    await publishQos1(second, topic(LEVEL_1, 'telemetry'), levelMsg(LEVEL_1, 1));

    // The session that replaced the first one still ends the device's online state when it goes.
    await endClient(second);
    await waitFor(async () => (await getDevice(s, cookie, LEVEL_1)).status === 'offline', 2000, 50);
  });
});

describe('MQTT rate limit and session bookkeeping (DEVICE_RATE_LIMIT=5, DEVICE_OFFLINE_AFTER_S=1)', () => {
  let s: TestServer;
  let cookie: string;
  beforeAll(async () => {
    s = await startServer({ DEVICE_RATE_LIMIT: '5', DEVICE_OFFLINE_AFTER_S: '1' });
    cookie = await s.login('viewer');
  });
  afterAll(async () => s.close());

  it('over the rate limit PUBACKs are delayed, nothing is dropped: 15 publishes at 5/s take ≥ ~1.5 s, all stored', async () => {
    const c = await device(s, LEVEL_1);
    await subscribeCodes(c, topic(LEVEL_1, 'errors'));
    const errors = collect(c, topic(LEVEL_1, 'errors'));
    const before = await countReadings(s, LEVEL_1);
    const start = Date.now();
    const acked: number[] = [];
    await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        publishQos1(c, topic(LEVEL_1, 'telemetry'), levelMsg(LEVEL_1, 1 + i / 100, { seq: i, boot: 'rl' })).then(() => acked.push(Date.now() - start)),
      ),
    );
    const elapsed = Date.now() - start;
    expect(await countReadings(s, LEVEL_1)).toBe(before + 15);
    expect(elapsed).toBeGreaterThanOrEqual(1400);
    expect(elapsed).toBeLessThan(6000);
    // The burst (5, plus ~2 refilled) is acknowledged at once, the rest spread out at 5/s.
    expect(acked.filter((t) => t < 500).length).toBeLessThanOrEqual(8);
    expect(acked.filter((t) => t >= 1000).length).toBeGreaterThanOrEqual(4);
    expect(errors).toEqual([]);
    expect(c.connected).toBe(true);
  });

  it('after the session ends the connection no longer keeps the device online (offline within its 1 s timeout)', async () => {
    const c = await connectDevice(s, GATE_1);
    await sleep(1500);
    // Connected for longer than the offline timeout: still online (the session holds it).
    expect((await getDevice(s, cookie, GATE_1)).status).toBe('online');
    c.stream.destroy();
    await waitFor(async () => (await getDevice(s, cookie, GATE_1)).status === 'offline', 3000, 100);
  });
});
