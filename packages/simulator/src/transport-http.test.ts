/**
 * The HTTP transport against a small real HTTP server that plays the server's side of
 * docs/protocol.md: real sockets, real JSON, no mocks.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DeviceCommand, TelemetryMessage } from '@agua/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { startFleet, type Fleet } from './fleet';
import { emptyStats } from './transport';
import { HttpTransport } from './transport-http';
import { command } from './test-io';

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
  at: number;
}
type Reply = { status: number; headers?: Record<string, string>; body?: unknown } | 'hold';
type Handler = (req: Seen) => Reply | Promise<Reply>;

class Peer {
  readonly seen: Seen[] = [];
  private server: Server | undefined;
  private readonly held = new Set<ServerResponse>();
  url = '';

  constructor(private handler: Handler) {}

  async listen(): Promise<this> {
    this.server = createServer(async (req, res) => {
      let raw = '';
      for await (const chunk of req) raw += chunk;
      const seen: Seen = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: raw ? JSON.parse(raw) : undefined,
        at: Date.now(),
      };
      this.seen.push(seen);
      const reply = await this.handler(seen);
      if (reply === 'hold') {
        // A long poll with nothing to say: keep it open until the client goes away.
        this.held.add(res);
        res.on('close', () => this.held.delete(res));
        return;
      }
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    return this;
  }

  get openLongPolls(): number {
    return this.held.size;
  }

  telemetry(): Seen[] {
    return this.seen.filter((s) => s.path === '/api/v1/telemetry');
  }

  async close(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

const accepted = (body: unknown, commands: DeviceCommand[] = []): Reply => {
  const n = Array.isArray(body) ? body.length : 1;
  return { status: 202, body: { accepted: n, duplicates: 0, commands } };
};

function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const tick = () => {
      if (check()) return resolve();
      if (Date.now() - started > timeoutMs) return reject(new Error('condition not met in time'));
      setTimeout(tick, 10);
    };
    tick();
  });
}

function message(seq: number): TelemetryMessage {
  return { deviceId: 'esp32_nivel_01', type: 'level_sensor', data: { value: seq / 10, unit: 'm' }, ts: Date.now(), seq, boot: 'b00710ad' };
}

const logger = { info() {}, warn() {}, error() {} };
let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function setup(handler: Handler, extra: Partial<ConstructorParameters<typeof HttpTransport>[0]> = {}) {
  const peer = await new Peer(handler).listen();
  const commands: DeviceCommand[] = [];
  const stats = emptyStats();
  const transport = new HttpTransport({
    url: `${peer.url}/`,
    deviceId: 'esp32_nivel_01',
    key: 'demo-key-esp32_nivel_01',
    onCommand: (c) => commands.push(c),
    logger,
    stats,
    longPoll: false,
    retryBaseMs: 50,
    ...extra,
  });
  cleanup.push(() => peer.close(), () => transport.stop());
  await transport.start();
  return { peer, transport, commands, stats };
}

describe('HttpTransport', () => {
  it('posts one message with X-API-Key and runs the commands of the 202', async () => {
    const cmd = command('read', { id: 'cmd_1' });
    const { peer, transport, commands, stats } = await setup((req) => accepted(req.body, [cmd]));
    const sent = message(0);
    transport.send(sent);
    await until(() => commands.length === 1);
    const [req] = peer.telemetry();
    expect(req!.method).toBe('POST');
    expect(req!.headers['x-api-key']).toBe('demo-key-esp32_nivel_01');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.body).toEqual(sent); // one message, not a batch of one
    expect(commands).toEqual([cmd]);
    expect(stats.sent).toBe(1);
  });

  it('acks on the ack route with the body of docs/protocol.md', async () => {
    const { peer, transport, stats } = await setup((req) =>
      req.path.endsWith('/ack') ? { status: 200, body: { status: 'succeeded' } } : accepted(req.body),
    );
    await transport.ack('cmd_42', { success: true, state: 'abriendo' });
    const ack = peer.seen.at(-1)!;
    expect(ack.method).toBe('POST');
    expect(ack.path).toBe('/api/v1/devices/esp32_nivel_01/commands/cmd_42/ack');
    expect(ack.headers['x-api-key']).toBe('demo-key-esp32_nivel_01');
    expect(ack.body).toEqual({ success: true, state: 'abriendo' });
    expect(stats.acks).toBe(1);
  });

  it('buffers through an outage and resends one batch with the same seq/boot', async () => {
    let down = true;
    const { peer, transport, stats } = await setup((req) => (down ? { status: 503, body: { code: 'SERVICE_UNAVAILABLE' } } : accepted(req.body)));
    for (let i = 0; i < 5; i++) transport.send(message(i));
    await until(() => peer.telemetry().length >= 2);
    expect(transport.buffered).toBe(5);
    down = false;
    await until(() => transport.buffered === 0);
    const delivered = peer.telemetry().at(-1)!.body as TelemetryMessage[];
    expect(Array.isArray(delivered)).toBe(true);
    expect(delivered.map((m) => [m.seq, m.boot])).toEqual([0, 1, 2, 3, 4].map((i) => [i, 'b00710ad']));
    expect(stats.sent).toBe(5);
    expect(stats.errors).toBeGreaterThanOrEqual(2);
  });

  it('keeps at most bufferCap readings, dropping the oldest', async () => {
    let down = true;
    const { transport, peer, stats } = await setup((req) => (down ? { status: 500 } : accepted(req.body)), { bufferCap: 3 });
    for (let i = 0; i < 6; i++) transport.send(message(i));
    await until(() => peer.telemetry().length >= 1 && transport.buffered === 3);
    down = false;
    await until(() => transport.buffered === 0 && stats.sent === 3);
    expect((peer.telemetry().at(-1)!.body as TelemetryMessage[]).map((m) => m.seq)).toEqual([3, 4, 5]);
    expect(stats.dropped).toBe(3);
  });

  it('waits Retry-After on 429', async () => {
    let first = true;
    const { peer, transport } = await setup((req) => {
      if (first) {
        first = false;
        return { status: 429, headers: { 'retry-after': '1' }, body: { code: 'RATE_LIMITED' } };
      }
      return accepted(req.body);
    });
    transport.send(message(0));
    await until(() => peer.telemetry().length === 2);
    const [a, b] = peer.telemetry();
    expect(b!.at - a!.at).toBeGreaterThanOrEqual(950);
    expect(b!.body).toMatchObject({ seq: 0 });
  });

  it('drops a message refused with a 4xx other than 429, and goes on', async () => {
    const { peer, transport, stats } = await setup((req) =>
      (req.body as TelemetryMessage).seq === 0 ? { status: 401, body: { code: 'DEVICE_KEY_INVALID' } } : accepted(req.body),
    );
    transport.send(message(0));
    await until(() => stats.dropped === 1);
    transport.send(message(1));
    await until(() => stats.sent === 1);
    expect(peer.telemetry().map((r) => (r.body as TelemetryMessage).seq)).toEqual([0, 1]);
  });

  it('drops only the bad message of a batch refused with details.index', async () => {
    let down = true;
    const { peer, transport, stats } = await setup((req) => {
      if (down) return { status: 503 };
      const batch = req.body as TelemetryMessage[];
      const bad = Array.isArray(batch) ? batch.findIndex((m) => m.seq === 1) : -1;
      if (bad >= 0) return { status: 422, body: { code: 'VALUE_INVALID', details: { index: bad } } };
      return accepted(req.body);
    });
    for (let i = 0; i < 3; i++) transport.send(message(i));
    await until(() => peer.telemetry().length >= 1);
    down = false;
    await until(() => stats.sent === 2);
    expect((peer.telemetry().at(-1)!.body as TelemetryMessage[]).map((m) => m.seq)).toEqual([0, 2]);
    expect(stats.dropped).toBe(1);
  });

  it('long-polls for commands with the wait parameter and closes the poll on stop', async () => {
    const cmd = command('read', { id: 'cmd_lp' });
    let polls = 0;
    const { peer, transport, commands } = await setup(
      (req) => {
        if (!req.path.startsWith('/api/v1/devices/esp32_nivel_01/commands?')) return accepted(req.body);
        polls++;
        return polls === 1 ? { status: 200, body: [cmd] } : 'hold';
      },
      { longPoll: true, longPollWaitS: 25 },
    );
    await until(() => commands.length === 1 && peer.openLongPolls === 1);
    expect(commands).toEqual([cmd]);
    const poll = peer.seen.find((s) => s.method === 'GET')!;
    expect(poll.path).toBe('/api/v1/devices/esp32_nivel_01/commands?wait=25');
    expect(poll.headers['x-api-key']).toBe('demo-key-esp32_nivel_01');
    await transport.stop();
    await until(() => peer.openLongPolls === 0);
    const count = peer.seen.length;
    await new Promise((r) => setTimeout(r, 200));
    expect(peer.seen.length).toBe(count);
  });
});

describe('startFleet over HTTP', () => {
  it('runs the demo devices: readings flow, a gate command is acked and the gate reports its way', async () => {
    const gateCommand = command('abrir', { id: 'cmd_gate' });
    let handedOut = false;
    const peer = await new Peer((req) => {
      if (req.path.endsWith('/ack')) return { status: 200, body: { status: 'succeeded' } };
      if (req.method === 'GET') return 'hold';
      const msg = req.body as TelemetryMessage;
      if (msg.deviceId === 'esp32_compuerta_01' && !handedOut) {
        handedOut = true;
        return accepted(req.body, [gateCommand]);
      }
      return accepted(req.body);
    }).listen();
    let fleet: Fleet | undefined;
    cleanup.push(() => peer.close(), async () => fleet?.stop());
    fleet = startFleet({
      url: peer.url,
      transport: 'http',
      intervalMs: 100,
      seed: 7,
      devices: [
        { id: 'esp32_nivel_01', type: 'level_sensor', key: 'demo-key-esp32_nivel_01', maxLevel: 10 },
        { id: 'esp32_nivel_02', type: 'level_sensor', key: 'demo-key-esp32_nivel_02', maxLevel: 5 },
        { id: 'esp32_compuerta_01', type: 'motorized_gate', key: 'demo-key-esp32_compuerta_01', travelMs: 300 },
      ],
    });
    const messages = () => peer.telemetry().flatMap((r) => (Array.isArray(r.body) ? r.body : [r.body]) as TelemetryMessage[]);
    await until(() => messages().some((m) => m.deviceId === 'esp32_compuerta_01' && m.data.value === 'abierta'));
    const ack = peer.seen.find((s) => s.path.endsWith('/ack'))!;
    expect(ack.path).toBe('/api/v1/devices/esp32_compuerta_01/commands/cmd_gate/ack');
    expect(ack.body).toEqual({ success: true, state: 'abriendo' });
    const gateStates = messages().filter((m) => m.deviceId === 'esp32_compuerta_01').map((m) => m.data.value);
    expect(gateStates.indexOf('abriendo')).toBeGreaterThan(gateStates.indexOf('cerrada'));
    expect(gateStates.indexOf('abierta')).toBeGreaterThan(gateStates.indexOf('abriendo'));
    for (const id of ['esp32_nivel_01', 'esp32_nivel_02']) {
      const mine = messages().filter((m) => m.deviceId === id);
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.map((m) => m.seq)).toEqual(mine.map((_, i) => i));
      expect(peer.telemetry().find((r) => (r.body as TelemetryMessage).deviceId === id)!.headers['x-api-key']).toBe(`demo-key-${id}`);
    }
    expect(peer.openLongPolls).toBe(3);
    await fleet.stop();
    await until(() => peer.openLongPolls === 0);
  });

  it('refuses a bad configuration at once', () => {
    expect(() => startFleet({ transport: 'http', devices: [] })).toThrow(/url/);
    expect(() => startFleet({ transport: 'mqtt', url: 'http://x', devices: [] })).toThrow(/mqttUrl/);
    expect(() => startFleet({ url: 'http://x', devices: [{ id: 'Bad Id', type: 'level_sensor', key: 'k' }] })).toThrow(/invalid device id/);
    // A tank it cannot play: the geometry the server would refuse, a drowned distance sensor.
    const sensor = { id: 'esp32_nivel_01', type: 'level_sensor', key: 'k', maxLevel: 5 } as const;
    expect(() => startFleet({ url: 'http://x', devices: [{ ...sensor, geometry: { sensor: 'distance' } }] })).toThrow(/esp32_nivel_01 geometry: mountHeightM/);
    expect(() => startFleet({ url: 'http://x', devices: [{ ...sensor, geometry: { sensor: 'distance', mountHeightM: 3 } }] })).toThrow(/mounted at or above maxLevel \(5 m\)/);
  });
});
