// docs/protocol.md details at the edges, over real HTTP and MQTT: what counts as being heard, the rate
// limit on every publish, size before content type without a length, calendar-exact times, the
// unit rule, long-poll limits and revocation, and a PUBACK that is never given for a reading
// that could not be stored.
import http from 'node:http';
import type { MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '@agua/shared';
import { demoKey, startServer, type TestServer } from '../helpers/server';
import { expectApiError, longPoll } from '../helpers/api';
import { sqlEngine, sqlRun } from '../helpers/sql';
import { GATE_1, LEVEL_1, LEVEL_2, connectDevice, countReadings, endClient, gateMsg, getDevice, levelMsg, postTelemetry, publishQos1, sleep, subscribeCodes, waitFor } from '../helpers/protocol';

const topic = (id: string, leaf: string) => `agua/v1/${id}/${leaf}`;
const clients: MqttClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => endClient(c, true)));
});

/** A chunked POST (no Content-Length) of `bytes` bytes to /api/v1/telemetry. */
function postChunked(s: TestServer, contentType: string, bytes: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${s.url}/api/v1/telemetry`, {
      method: 'POST',
      headers: { 'content-type': contentType, 'x-api-key': demoKey(LEVEL_1), 'transfer-encoding': 'chunked' },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    const chunk = Buffer.alloc(16 * 1024, 'a');
    let sent = 0;
    const writeMore = () => {
      while (sent < bytes) {
        const part = chunk.subarray(0, Math.min(chunk.length, bytes - sent));
        sent += part.length;
        if (!req.write(part)) return req.once('drain', writeMore);
      }
      req.end();
    };
    writeMore();
  });
}

describe('PROTOCOL edges (DEVICE_RATE_LIMIT=0)', () => {
  let s: TestServer;
  let viewer: string;
  let operator: string;
  beforeAll(async () => {
    s = await startServer({ DEVICE_RATE_LIMIT: '0', DEVICE_OFFLINE_AFTER_S: '300' });
    viewer = await s.login('viewer');
    operator = await s.login('operator');
  });
  afterAll(async () => s.close());

  it('a refused reading still shows the device is alive: online, lastSeen set, nothing stored', async () => {
    expect(await getDevice(s, viewer, LEVEL_2)).toMatchObject({ status: 'offline', lastSeen: null });
    await expectApiError(await postTelemetry(s, levelMsg(LEVEL_2, null)), 422, 'VALUE_INVALID');
    const d = await getDevice(s, viewer, LEVEL_2);
    expect(d.status).toBe('online');
    expect(d.lastSeen).not.toBeNull();
    expect(await countReadings(s, LEVEL_2)).toBe(0);
  });

  it('a long poll with wait=0 counts as being heard too', async () => {
    expect((await getDevice(s, viewer, GATE_1)).lastSeen).toBeNull();
    const res = await longPoll(s, GATE_1, { wait: '0' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
    expect(await getDevice(s, viewer, GATE_1)).toMatchObject({ status: 'online' });
  });

  it('wait: a very large number is taken as 60 (the poll stays open); a fraction or text is 400', async () => {
    const abort = new AbortController();
    const poll = longPoll(s, LEVEL_1, { wait: '99999999999', signal: abort.signal }).then(
      (r) => r.status,
      () => 'still waiting' as const,
    );
    await sleep(500);
    abort.abort();
    expect(await poll).toBe('still waiting');
    await expectApiError(await longPoll(s, LEVEL_1, { wait: '1.5' }), 400);
    await expectApiError(await longPoll(s, LEVEL_1, { wait: '-1' }), 400);
  });

  it('impossible calendar times are a bad ts (422), real ones pass', async () => {
    for (const ts of ['2026-02-30T10:00:00Z', '2025-02-29T00:00:00Z', '2026-01-01T24:00:00Z', '2026-01-01T10:60:00+01:00', '2026-01-01T10:00:00+25:00']) {
      await expectApiError(await postTelemetry(s, levelMsg(LEVEL_1, 1, { ts })), 422, 'TS_INVALID');
    }
    expect((await postTelemetry(s, levelMsg(LEVEL_1, 1, { ts: '2024-02-29T23:59:59.5-03:00' }))).status).toBe(202);
  });

  it("a unit other than m is refused for any device; a gate's null unit is accepted", async () => {
    await expectApiError(await postTelemetry(s, levelMsg(LEVEL_1, 1, { data: { value: 1, unit: 'cm' } })), 422, 'UNIT_INVALID');
    await expectApiError(await postTelemetry(s, gateMsg(GATE_1, 'cerrada', { data: { value: 'cerrada', unit: 'cm' } })), 422, 'UNIT_INVALID');
    expect((await postTelemetry(s, gateMsg(GATE_1, 'cerrada', { data: { value: 'cerrada', unit: null } }))).status).toBe(202);
    expect((await postTelemetry(s, gateMsg(GATE_1, 'cerrada', { data: { value: 'cerrada', unit: 'm' } }))).status).toBe(202);
  });

  it('without Content-Length, size is still judged before content type: big text 413, small text 415', async () => {
    const big = await postChunked(s, 'text/plain', MAX_BODY_BYTES + 1024);
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body).code).toBe('PAYLOAD_TOO_LARGE');
    const small = await postChunked(s, 'text/plain', 100);
    expect(small.status).toBe(415);
    const bigJson = await postChunked(s, 'application/json', MAX_BODY_BYTES + 1024);
    expect(bigJson.status).toBe(413);
  });

  it("Desconectar answers the device's open long poll with 403 DEVICE_DISABLED", async () => {
    const admin = await s.login('admin');
    const poll = longPoll(s, LEVEL_1, { wait: '20' });
    await waitFor(() => s.modules.devices.service.hasOpenConnection(LEVEL_1));
    const off = await s.fetch(`/api/v1/devices/${LEVEL_1}`, { method: 'PATCH', cookie: admin, json: { enabled: false } });
    expect(off.status).toBe(200);
    const res = await Promise.race([poll, sleep(3000).then(() => null)]);
    expect(res, 'long poll still open 3 s after Desconectar').not.toBeNull();
    await expectApiError(res!, 403, 'DEVICE_DISABLED');
    expect((await s.fetch(`/api/v1/devices/${LEVEL_1}`, { method: 'PATCH', cookie: admin, json: { enabled: true } })).status).toBe(200);
  });

  it('the command list of an unknown device is 404', async () => {
    await expectApiError(await s.fetch('/api/v1/commands?deviceId=no_such_device', { cookie: operator }), 404, 'DEVICE_NOT_FOUND');
    expect((await s.fetch(`/api/v1/commands?deviceId=${LEVEL_1}`, { cookie: operator })).status).toBe(200);
  });

  it('MQTT: wildcards below its own prefix are granted and deliver its own messages only', async () => {
    const c = await connectDevice(s, LEVEL_2);
    clients.push(c);
    const granted = await subscribeCodes(c, [topic(LEVEL_2, '#'), topic(LEVEL_2, '+'), 'agua/v1/+/errors']);
    expect(granted).toEqual([1, 1, 128]);
    const got: string[] = [];
    c.on('message', (t) => got.push(t));
    await publishQos1(c, topic(LEVEL_2, 'telemetry'), levelMsg(LEVEL_2, 'not a number'));
    await waitFor(() => got.includes(topic(LEVEL_2, 'errors')), 2000);
  });

  it('MQTT: a reading that cannot be stored gets no PUBACK (the connection closes) and is stored once sent again', async () => {
    const c = await connectDevice(s, LEVEL_1);
    clients.push(c);
    // A trigger that refuses every new reading, as a failing disk would (each engine's own DDL).
    if (sqlEngine(s) === 'postgres') {
      await sqlRun(s, "CREATE FUNCTION fail_readings() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk failure'; END $$");
      await sqlRun(s, 'CREATE TRIGGER fail_readings BEFORE INSERT ON readings FOR EACH ROW EXECUTE FUNCTION fail_readings()');
    } else {
      await sqlRun(s, "CREATE TRIGGER fail_readings BEFORE INSERT ON readings BEGIN SELECT RAISE(ABORT, 'disk failure'); END");
    }
    const before = await countReadings(s, LEVEL_1);
    const msg = levelMsg(LEVEL_1, 2.5, { seq: 7, boot: 'puback' });
    let acked = false;
    const closed = new Promise<void>((resolve) => c.once('close', () => resolve()));
    publishQos1(c, topic(LEVEL_1, 'telemetry'), msg).then(
      () => (acked = true),
      () => undefined,
    );
    await Promise.race([closed, sleep(3000).then(() => Promise.reject(new Error('connection not closed within 3 s')))]);
    expect(acked).toBe(false);
    expect(await countReadings(s, LEVEL_1)).toBe(before);

    if (sqlEngine(s) === 'postgres') {
      await sqlRun(s, 'DROP TRIGGER fail_readings ON readings');
      await sqlRun(s, 'DROP FUNCTION fail_readings()');
    } else {
      await sqlRun(s, 'DROP TRIGGER fail_readings');
    }
    const again = await connectDevice(s, LEVEL_1);
    clients.push(again);
    await publishQos1(again, topic(LEVEL_1, 'telemetry'), msg);
    expect(await countReadings(s, LEVEL_1)).toBe(before + 1);
  });
});

describe('MQTT rate limit counts every publish (DEVICE_RATE_LIMIT=5)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ DEVICE_RATE_LIMIT: '5' });
  });
  afterAll(async () => s.close());

  it('status publishes are paced like readings: 15 take over a second, none is refused', async () => {
    const c = await connectDevice(s, LEVEL_1);
    clients.push(c);
    const start = Date.now();
    await Promise.all(Array.from({ length: 15 }, () => publishQos1(c, topic(LEVEL_1, 'status'), 'online')));
    expect(Date.now() - start).toBeGreaterThanOrEqual(1400);
    expect(c.connected).toBe(true);
  });
});
