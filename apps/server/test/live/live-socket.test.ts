// docs/api.md "Live socket" over a real WebSocket: handshake checks, hello snapshot, events, close on logout.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ERROR_MESSAGES, LIVE_HEARTBEAT_MS, LIVE_SILENCE_MS } from '@agua/shared';
import { startServer, type TestServer } from '../helpers/server';
import {
  GATE_2,
  LEVEL_1,
  LEVEL_2,
  connectDevice,
  endClient,
  gateMsg,
  levelMsg,
  openLive,
  postTelemetry,
  publishQos1,
  sleep,
  waitFor,
  type LiveSocket,
} from '../helpers/protocol';

describe('live socket /api/v1/live', () => {
  let s: TestServer;
  const open: LiveSocket[] = [];
  beforeAll(async () => {
    s = await startServer({ DEVICE_RATE_LIMIT: '0' });
  });
  afterEach(() => {
    open.splice(0).forEach((l) => l.close());
  });
  afterAll(async () => s.close());

  async function connect(cookie: string, headers: Record<string, string> = {}): Promise<LiveSocket> {
    const r = await openLive(s, { cookie, ...headers });
    if (!r.live) throw new Error(`live socket refused: ${r.status} ${r.body}`);
    open.push(r.live);
    return r.live;
  }

  describe('handshake', () => {
    it('without a session cookie → 401 (no upgrade)', async () => {
      const r = await openLive(s);
      expect(r.status).toBe(401);
      expect(r.live).toBeNull();
      if (r.live === null) expect(JSON.parse(r.body)).toMatchObject({ code: 'UNAUTHENTICATED', error: ERROR_MESSAGES.UNAUTHENTICATED });
    });

    it('with an unknown or forged session cookie → 401', async () => {
      expect((await openLive(s, { cookie: 'agua_session=forged-token' })).status).toBe(401);
    });

    it('with a foreign Origin → 403 CSRF_REJECTED, even with a valid session', async () => {
      const cookie = await s.login('viewer');
      const r = await openLive(s, { cookie, origin: 'http://evil.example' });
      expect(r.status).toBe(403);
      if (r.live === null) expect(JSON.parse(r.body)).toMatchObject({ code: 'CSRF_REJECTED' });
      expect((await openLive(s, { cookie, origin: 'null' })).status).toBe(403);
      // Same host on another port is another origin.
      expect((await openLive(s, { cookie, origin: 'http://127.0.0.1:1' })).status).toBe(403);
    });

    it('with the server’s own Origin (and without Origin) the upgrade succeeds', async () => {
      const cookie = await s.login('viewer');
      expect((await openLive(s, { cookie, origin: s.url })).status).toBe(101);
      expect((await openLive(s, { cookie })).status).toBe(101);
    });

    it('a user who must change the password gets no socket (403 PASSWORD_CHANGE_REQUIRED)', async () => {
      const user = await s.modules.auth.users.findByUsername('viewer');
      const cookie = await s.login('viewer');
      await s.modules.auth.users.update(user!.id, { mustChangePassword: true });
      try {
        const r = await openLive(s, { cookie });
        expect(r.status).toBe(403);
        if (r.live === null) expect(JSON.parse(r.body)).toMatchObject({ code: 'PASSWORD_CHANGE_REQUIRED' });
      } finally {
        await s.modules.auth.users.update(user!.id, { mustChangePassword: false });
      }
    });
  });

  describe('frames', () => {
    it('first frame is hello {user, devices} with the four seed devices', async () => {
      const cookie = await s.login('operator');
      const live = await connect(cookie);
      const hello = await live.next(() => true);
      expect(live.frames[0]).toBe(hello);
      expect(hello.type).toBe('hello');
      expect(hello.data.user).toMatchObject({ username: 'operator', role: 'operator' });
      // No secret in the snapshot: no hash, no password field (mustChangePassword is a flag).
      for (const key of Object.keys(hello.data.user)) expect(key).not.toMatch(/hash|^password$|^masterPassword$/i);
      expect(JSON.stringify(hello.data.user)).not.toMatch(/\$argon2|operator123/);
      expect(hello.data.devices.map((d: { id: string }) => d.id)).toEqual(['esp32_nivel_01', 'esp32_nivel_02', 'esp32_compuerta_01', 'esp32_compuerta_02']);
      // The snapshot is the same as GET /api/v1/devices.
      const listed = await (await s.fetch('/api/v1/devices', { cookie })).json();
      expect(hello.data.devices).toEqual(listed);
    });

    it('a heartbeat comes every 5 s even when nothing happens, so a browser can tell a dead link from a quiet plant', async () => {
      const live = await connect(await s.login('viewer'));
      await live.next((f) => f.type === 'hello');
      const first = await live.next((f) => f.type === 'heartbeat', LIVE_HEARTBEAT_MS + 1_500);
      expect(Date.parse(first.data.at)).toBeGreaterThan(Date.now() - 10_000);
      const index = live.frames.indexOf(first);
      const second = await live.next((f) => f.type === 'heartbeat', LIVE_HEARTBEAT_MS + 1_500, index + 1);
      expect(Date.parse(second.data.at) - Date.parse(first.data.at)).toBeGreaterThanOrEqual(LIVE_HEARTBEAT_MS - 500);
      expect(LIVE_HEARTBEAT_MS * 2).toBeLessThanOrEqual(LIVE_SILENCE_MS);
    });

    it('a POST /api/v1/telemetry reaches the socket as reading.created within 1 s', async () => {
      const live = await connect(await s.login('viewer'));
      await live.next((f) => f.type === 'hello');
      const t0 = Date.now();
      const res = await postTelemetry(s, levelMsg(LEVEL_1, 8.75));
      expect(res.status).toBe(202);
      const frame = await live.next((f) => f.type === 'reading.created' && f.data.deviceId === LEVEL_1 && f.data.reading.value === 8.75, 1000);
      expect(Date.now() - t0).toBeLessThan(1000);
      // docs/water.md: the demo wet well (24 m², crest 9 m) holds 210 m³ at 8.75 m.
      expect(frame.data).toEqual({
        deviceId: LEVEL_1,
        reading: { value: 8.75, unit: 'm', status: 'critical', ts: expect.any(String), raw: 8.75 },
        analytics: expect.objectContaining({ volumeM3: 210, quality: 'good', at: frame.data.reading.ts }),
      });
      expect(frame.data.analytics!.fillPct).toBeCloseTo((100 * 210) / 216, 9);
      expect(Date.parse(frame.data.reading.ts)).toBeGreaterThanOrEqual(t0 - 5);
    });

    it('a gate reading arrives with unit null and its status', async () => {
      const live = await connect(await s.login('viewer'));
      await live.next((f) => f.type === 'hello');
      expect((await postTelemetry(s, gateMsg(GATE_2, 'falla'))).status).toBe(202);
      const frame = await live.next((f) => f.type === 'reading.created' && f.data.deviceId === GATE_2, 1000);
      expect(frame.data.reading).toMatchObject({ value: 'falla', unit: null, status: 'fault' });
    });

    it('a late batch sends no reading.created (the current reading did not change)', async () => {
      const live = await connect(await s.login('viewer'));
      await live.next((f) => f.type === 'hello');
      await postTelemetry(s, levelMsg(LEVEL_1, 1.5));
      await live.next((f) => f.type === 'reading.created' && f.data.reading.value === 1.5, 1000);
      const from = live.frames.length;
      await postTelemetry(s, [levelMsg(LEVEL_1, 4.44, { ts: Date.now() - 3_600_000 })]);
      await sleep(300);
      expect(live.frames.slice(from).filter((f) => f.type === 'reading.created' && f.data.deviceId === LEVEL_1)).toEqual([]);
    });

    it("the last of a burst of readings is always delivered (coalescing never loses the latest)", async () => {
      const live = await connect(await s.login('viewer'));
      await live.next((f) => f.type === 'hello');
      for (let i = 0; i < 10; i++) await postTelemetry(s, levelMsg(LEVEL_1, 5 + i / 100));
      const last = await live.next((f) => f.type === 'reading.created' && f.data.reading.value === 5.09, 1000);
      expect(last.data.deviceId).toBe(LEVEL_1);
      // Frames never go backwards in time for one device.
      const values = live.frames.filter((f) => f.type === 'reading.created' && f.data.deviceId === LEVEL_1).map((f) => Date.parse(f.data.reading.ts));
      expect([...values].sort((a, b) => a - b)).toEqual(values);
    });

    it('device.updated arrives when a device comes online (MQTT connect)', async () => {
      const live = await connect(await s.login('viewer'));
      const hello = await live.next((f) => f.type === 'hello');
      expect(hello.data.devices.find((d: { id: string }) => d.id === LEVEL_2).status).toBe('offline');
      const client = await connectDevice(s, LEVEL_2);
      try {
        const upd = await live.next((f) => f.type === 'device.updated' && f.data.id === LEVEL_2 && f.data.status === 'online', 1500);
        expect(upd.data).toMatchObject({ id: LEVEL_2, type: 'level_sensor', enabled: true, status: 'online' });
        expect(upd.data.lastSeen).toEqual(expect.any(String));
      } finally {
        await endClient(client, true);
      }
    });

    it('one acknowledgement is one device change: a single device.updated with the new command status and gate state', async () => {
      const live = await connect(await s.login('viewer'));
      await live.next((f) => f.type === 'hello');
      const device = await connectDevice(s, GATE_2);
      try {
        const commands: Array<{ id: string }> = [];
        device.on('message', (_topic, payload) => commands.push(JSON.parse(payload.toString()) as { id: string }));
        await new Promise<void>((resolve, reject) => device.subscribe(`agua/v1/${GATE_2}/commands`, { qos: 1 }, (err) => (err ? reject(err) : resolve())));
        const issued = await s.fetch(`/api/v1/devices/${GATE_2}/commands`, { method: 'POST', cookie: await s.login('operator'), json: { command: 'abrir' } });
        expect(issued.status).toBe(202);
        await waitFor(() => commands.length > 0);
        await sleep(300); // the delivery's own frames have gone out
        const from = live.frames.length;
        await publishQos1(device, `agua/v1/${GATE_2}/commands/ack`, { id: commands[0]!.id, success: true, state: 'abriendo' });
        await live.next((f) => f.type === 'device.updated' && f.data.id === GATE_2, 1500, from);
        await sleep(400); // anything else this change would send has arrived by now
        const updates = live.frames.slice(from).filter((f) => f.type === 'device.updated' && f.data.id === GATE_2);
        expect(updates).toHaveLength(1);
        expect(updates[0]!.data).toMatchObject({ config: { state: 'abriendo' }, lastCommand: { id: commands[0]!.id, status: 'succeeded' } });
        expect(live.frames.slice(from).filter((f) => f.type === 'command.updated')).toHaveLength(1);
      } finally {
        await endClient(device, true);
      }
    });

    it('unknown or garbage frames from the client are ignored; the socket stays open and keeps delivering', async () => {
      const live = await connect(await s.login('viewer'));
      await live.next((f) => f.type === 'hello');
      live.ws.send('garbage');
      live.ws.send(JSON.stringify({ type: 'subscribe', data: { deviceId: '*' } }));
      live.ws.send(JSON.stringify({ type: 'hello' }));
      live.ws.send(Buffer.from([0, 1, 2, 255]));
      live.ws.send('{"__proto__":{"polluted":true}}');
      await sleep(200);
      expect(live.ws.readyState).toBe(WebSocket.OPEN);
      expect(live.closeCode).toBeNull();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      await postTelemetry(s, levelMsg(LEVEL_1, 2.34));
      await live.next((f) => f.type === 'reading.created' && f.data.reading.value === 2.34, 1000);
      // The server answered nothing to the garbage: only hello and the reading (and the 5 s
      // heartbeat, which every socket gets whatever it sends, when a slow machine reaches one).
      expect(live.frames.map((f) => f.type).filter((t) => t !== 'device.updated' && t !== 'heartbeat')).toEqual(['hello', 'reading.created']);
    });

    it('every frame is JSON {type, data}', async () => {
      const live = await connect(await s.login('viewer'));
      await live.next((f) => f.type === 'hello');
      await postTelemetry(s, levelMsg(LEVEL_1, 3.21));
      await live.next((f) => f.type === 'reading.created', 1000);
      for (const f of live.frames) expect(Object.keys(f).sort()).toEqual(['data', 'type']);
    });
  });

  describe('session end', () => {
    it('logout of that session closes its socket with code 4401; other sessions keep theirs', async () => {
      const cookieA = await s.login('operator');
      const cookieB = await s.login('operator');
      const a = await connect(cookieA);
      const b = await connect(cookieB);
      await a.next((f) => f.type === 'hello');
      await b.next((f) => f.type === 'hello');
      const res = await s.fetch('/api/v1/auth/logout', { method: 'POST', cookie: cookieA });
      expect(res.status).toBe(204);
      expect(await a.closed(2000)).toBe(4401);
      await sleep(100);
      expect(b.closeCode).toBeNull();
      expect(b.ws.readyState).toBe(WebSocket.OPEN);
      // The ended session cannot open a new socket.
      expect((await openLive(s, { cookie: cookieA })).status).toBe(401);
    });

    it('a closed socket gets no more frames and does not break broadcasting to others', async () => {
      const gone = await connect(await s.login('viewer'));
      const stays = await connect(await s.login('viewer'));
      await gone.next((f) => f.type === 'hello');
      await stays.next((f) => f.type === 'hello');
      gone.ws.terminate();
      await gone.closed();
      await postTelemetry(s, levelMsg(LEVEL_1, 6.66));
      await stays.next((f) => f.type === 'reading.created' && f.data.reading.value === 6.66, 1000);
      expect(await (await s.fetch('/api/health')).status).toBe(200);
    });
  });
});
