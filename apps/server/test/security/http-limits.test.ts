// Slow requests are timed out and one address cannot hold every connection (issue 10, item 4).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoKey, startServer, type TestServer } from '../helpers/server';

/** A raw TCP connection from a chosen loopback source address; resolves when connected. */
function connectFrom(localAddress: string, port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves with what the server sent and when the connection ended, or 'open' after `ms`. */
function endOf(socket: net.Socket, ms: number): Promise<{ closedAfterMs: number; received: string } | 'open'> {
  const start = Date.now();
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (c: string) => (received += c));
  socket.on('error', () => undefined);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('open'), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ closedAfterMs: Date.now() - start, received });
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('request timeouts (REQUEST_TIMEOUT_S=2)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ REQUEST_TIMEOUT_S: '2' });
  });
  afterAll(async () => s.close());

  it('a body trickled one byte at a time is cut off, and the server keeps serving meanwhile', async () => {
    const socket = await connectFrom('127.0.0.1', (s.app.server.address() as net.AddressInfo).port);
    socket.write(
      `POST /api/v1/telemetry HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${demoKey('esp32_nivel_01')}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{',
    );
    const trickle = setInterval(() => socket.writable && socket.write(' '), 300);
    const ended = endOf(socket, 8_000);
    expect((await s.fetch('/api/health')).status).toBe(200);
    const result = await ended;
    clearInterval(trickle);
    expect(result).not.toBe('open');
    if (result !== 'open') {
      expect(result.closedAfterMs).toBeLessThan(6_000);
      expect(result.received).toMatch(/^HTTP\/1\.1 408/);
    }
  });

  it('headers that never finish are cut off too', async () => {
    const port = (s.app.server.address() as net.AddressInfo).port;
    const socket = await connectFrom('127.0.0.1', port);
    socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const trickle = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 300);
    const result = await endOf(socket, 8_000);
    clearInterval(trickle);
    expect(result).not.toBe('open');
  });

  it('a long poll longer than the request timeout still gets its answer', async () => {
    const started = Date.now();
    const res = await s.fetch('/api/v1/devices/esp32_compuerta_02/commands?wait=3', {
      headers: { 'x-api-key': demoKey('esp32_compuerta_02') },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
  });
});

describe('connections per address (MAX_CONNECTIONS_PER_ADDRESS=5)', () => {
  let s: TestServer;
  let port: number;
  beforeAll(async () => {
    s = await startServer({ MAX_CONNECTIONS_PER_ADDRESS: '5' });
    port = (s.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => s.close());

  it('refuses the connection over the cap from one address while other addresses are served', async () => {
    const held = await Promise.all(Array.from({ length: 5 }, () => connectFrom('127.0.0.2', port)));
    await sleep(100); // the server has counted them
    const extra = await connectFrom('127.0.0.2', port);
    const result = await endOf(extra, 2_000);
    expect(result).not.toBe('open');
    if (result !== 'open') expect(result.received).toBe('');

    // Health checks and everybody else still get in.
    expect((await s.fetch('/api/health')).status).toBe(200);
    const other = await connectFrom('127.0.0.3', port);
    other.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    const answer = await endOf(other, 3_000);
    expect(answer !== 'open' && answer.received).toMatch(/^HTTP\/1\.1 200/);

    // A closed connection frees its place.
    held[0]!.destroy();
    await sleep(100);
    const again = await connectFrom('127.0.0.2', port);
    again.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    const served = await endOf(again, 3_000);
    expect(served !== 'open' && served.received).toMatch(/^HTTP\/1\.1 200/);
    for (const c of held) c.destroy();
  });
});

describe('connections per address: trusted proxies are exempt', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ MAX_CONNECTIONS_PER_ADDRESS: '2', TRUST_PROXY: '127.0.0.4' });
  });
  afterAll(async () => s.close());

  it('a trusted proxy may hold more connections than the cap', async () => {
    const port = (s.app.server.address() as net.AddressInfo).port;
    const held = await Promise.all(Array.from({ length: 4 }, () => connectFrom('127.0.0.4', port)));
    await sleep(100);
    const last = held[3]!;
    last.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    const answer = await endOf(last, 3_000);
    expect(answer !== 'open' && answer.received).toMatch(/^HTTP\/1\.1 200/);
    for (const c of held) c.destroy();
  });
});
