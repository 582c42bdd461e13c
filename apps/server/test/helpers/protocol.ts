// Helpers for the device-protocol and live-socket tests: real HTTP, real MQTT, real WebSocket.
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import WebSocket from 'ws';
import { demoKey, type TestServer } from './server';
import { sqlAll, sqlValue } from './sql';

export const LEVEL_1 = 'esp32_nivel_01'; // maxLevel 10
export const LEVEL_2 = 'esp32_nivel_02'; // maxLevel 5
export const GATE_1 = 'esp32_compuerta_01';
export const GATE_2 = 'esp32_compuerta_02';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface ApiDevice {
  id: string;
  type: string;
  status: 'online' | 'offline';
  enabled: boolean;
  lastSeen: string | null;
  config: Record<string, unknown>;
  reading: { value: number | string; unit: string | null; status: string; ts: string } | null;
}

/** A level-sensor message (extra fields merged in). */
export function levelMsg(deviceId: string, value: unknown, extra: Record<string, unknown> = {}) {
  return { deviceId, type: 'level_sensor', data: { value, unit: 'm' }, ...extra };
}

/** A gate message. */
export function gateMsg(deviceId: string, value: unknown, extra: Record<string, unknown> = {}) {
  return { deviceId, type: 'motorized_gate', data: { value }, ...extra };
}

/** POST /api/v1/telemetry with a device key (X-API-Key unless headers say otherwise), to a server or any instance's base URL. */
export function postTelemetry(
  s: Pick<TestServer, 'url'>,
  body: unknown,
  opts: { key?: string | null; headers?: Record<string, string>; raw?: string; contentType?: string; signal?: AbortSignal } = {},
): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': opts.contentType ?? 'application/json', ...opts.headers };
  if (opts.key !== null) {
    const key = opts.key ?? demoKey(deviceOf(body) ?? LEVEL_1);
    if (!('authorization' in headers)) headers['x-api-key'] = key;
  }
  return fetch(`${s.url}/api/v1/telemetry`, {
    method: 'POST',
    headers,
    body: opts.raw ?? JSON.stringify(body),
    ...(opts.signal && { signal: opts.signal }),
  });
}

function deviceOf(body: unknown): string | undefined {
  const first = Array.isArray(body) ? body[0] : body;
  if (first && typeof first === 'object' && typeof (first as { deviceId?: unknown }).deviceId === 'string') {
    return (first as { deviceId: string }).deviceId;
  }
  return undefined;
}

/** Number of stored readings of a device (straight from the database). */
export async function countReadings(s: TestServer, deviceId: string): Promise<number> {
  return Number(await sqlValue(s, 'SELECT COUNT(*) AS n FROM readings WHERE device_id = ?', deviceId));
}

/** Stored readings of a device, in insertion order. */
export async function readingRows(s: TestServer, deviceId: string): Promise<Array<{ tsMs: number; valueNum: number | null; valueText: string | null; status: string }>> {
  const rows = await sqlAll<{ tsMs: number | string; valueNum: number | string | null; valueText: string | null; status: string }>(
    s,
    'SELECT ts_ms AS "tsMs", value_num AS "valueNum", value_text AS "valueText", status FROM readings WHERE device_id = ? ORDER BY id',
    deviceId,
  );
  // BIGINT (and NUMERIC) columns may come back as strings (PostgreSQL): numbers, as SQLite gives them.
  return rows.map((r) => ({ ...r, tsMs: Number(r.tsMs), valueNum: r.valueNum === null ? null : Number(r.valueNum) }));
}

/** One device as GET /api/v1/devices shows it. */
export async function getDevice(s: TestServer, cookie: string, id: string): Promise<ApiDevice> {
  const res = await s.fetch('/api/v1/devices', { cookie });
  if (res.status !== 200) throw new Error(`GET /api/v1/devices: ${res.status}`);
  const d = ((await res.json()) as ApiDevice[]).find((x) => x.id === id);
  if (!d) throw new Error(`device ${id} not listed`);
  return d;
}

/** Enables or disables a device through the devices service (no HTTP route for it yet). */
export function setEnabled(s: TestServer, id: string, enabled: boolean): void {
  const record = s.modules.devices.service.get(id);
  if (!record) throw new Error(`unknown device ${id}`);
  s.modules.devices.service.upsert({ ...record, enabled });
}

/** Polls until fn returns a truthy value, or throws after timeoutMs. */
export async function waitFor<T>(fn: () => T | Promise<T>, timeoutMs = 3000, everyMs = 25): Promise<T> {
  const start = Date.now();
  let last: T;
  for (;;) {
    last = await fn();
    if (last) return last;
    if (Date.now() - start > timeoutMs) throw new Error(`waitFor timed out after ${timeoutMs} ms (last: ${JSON.stringify(last)})`);
    await sleep(everyMs);
  }
}

// ---- MQTT -------------------------------------------------------------------------------------

/** Connects a device with mqtt.js (3.1.1, no reconnect); resolves on CONNACK 0, rejects on refusal. */
export function connectDevice(s: Pick<TestServer, 'mqttUrl'>, deviceId: string, opts: Partial<IClientOptions> = {}): Promise<MqttClient> {
  return new Promise((resolve, reject) => {
    const client = mqtt.connect(s.mqttUrl, {
      protocolVersion: 4,
      clientId: deviceId,
      username: deviceId,
      password: demoKey(deviceId),
      reconnectPeriod: 0,
      connectTimeout: 5000,
      clean: true,
      ...opts,
    });
    const fail = (err: Error) => {
      client.end(true);
      reject(err);
    };
    client.once('connect', () => {
      client.off('error', fail);
      resolve(client);
    });
    client.once('error', fail);
    client.once('close', () => fail(new Error('closed before CONNACK')));
  });
}

/** SUBSCRIBE and resolve with the SUBACK return codes (failures included). */
export function subscribeCodes(client: MqttClient, topics: string | string[], qos: 0 | 1 = 1): Promise<number[]> {
  return new Promise((resolve, reject) => {
    client.subscribe(topics, { qos }, (err, _granted, packet) => {
      const codes = (packet as { granted?: number[] } | undefined)?.granted;
      if (codes) resolve(codes);
      else reject(err ?? new Error('no SUBACK'));
    });
  });
}

/** Publishes with QoS 1 and resolves when the PUBACK arrives. */
export function publishQos1(client: MqttClient, topic: string, payload: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
    client.publish(topic, body, { qos: 1 }, (err) => (err ? reject(err) : resolve()));
  });
}

export function endClient(client: MqttClient, force = false): Promise<void> {
  return new Promise((resolve) => client.end(force, {}, () => resolve()));
}

// ---- live socket ------------------------------------------------------------------------------

export interface LiveFrame {
  type: string;
  data: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A live socket with every received frame kept, and a way to wait for one. */
export class LiveSocket {
  readonly frames: LiveFrame[] = [];
  closeCode: number | null = null;
  private waiters: Array<() => void> = [];

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.frames.push(JSON.parse(data.toString()) as LiveFrame);
      this.wake();
    });
    ws.on('close', (code) => {
      this.closeCode = code;
      this.wake();
    });
  }

  private wake() {
    const w = this.waiters;
    this.waiters = [];
    w.forEach((f) => f());
  }

  /** Waits for the first frame (from index `from`) that matches. */
  async next(match: (f: LiveFrame) => boolean, timeoutMs = 2000, from = 0): Promise<LiveFrame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.slice(from).find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching live frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames.map((f) => f.type))}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  async closed(timeoutMs = 2000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (this.closeCode === null) {
      if (Date.now() > deadline) throw new Error(`socket not closed within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 50);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return this.closeCode;
  }

  close() {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.terminate();
  }
}

/** The outcome of a WebSocket handshake: an open LiveSocket, or the HTTP status that refused it. */
export function openLive(
  s: Pick<TestServer, 'url'>,
  headers: Record<string, string> = {},
): Promise<{ live: LiveSocket; status: 101 } | { live: null; status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${s.url.replace('http', 'ws')}/api/v1/live`, { headers });
    // Frames may arrive right after the upgrade: attach the collector before 'open'.
    const live = new LiveSocket(ws);
    ws.once('open', () => resolve({ live, status: 101 }));
    ws.once('unexpected-response', (req, res) => {
      let body = '';
      const done = () => {
        resolve({ live: null, status: res.statusCode ?? 0, body });
        req.destroy();
      };
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', done);
      res.on('error', done);
    });
    ws.on('error', (err) => reject(err)); // settles once; later errors are ignored
  });
}
