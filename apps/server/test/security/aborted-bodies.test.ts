// A client that drops its request mid-body is the client's failure, never the storage's: health
// stays 200 and writes keep going through, however many such requests come (behind the HAProxy
// configuration in deploy/, one anonymous client could otherwise keep every instance marked down).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoKey, startServer, type TestServer } from '../helpers/server';
import { LEVEL_1, countReadings, levelMsg, postTelemetry } from '../helpers/protocol';

let s: TestServer;

beforeAll(async () => {
  s = await startServer();
});

afterAll(async () => {
  await s.close();
});

/** Sends the head and part of a body that announces more, then resets the connection. */
function abortMidBody(path: string, headers: Record<string, string>): Promise<void> {
  const { port } = new URL(s.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => {
      const head = Object.entries({ host: `127.0.0.1:${port}`, 'content-type': 'application/json', 'content-length': '100000', ...headers })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n{"deviceId":"${LEVEL_1}","type":"level`);
      // Long enough for the server to have started reading the body.
      setTimeout(() => {
        socket.resetAndDestroy();
        resolve();
      }, 30);
    });
    socket.once('error', reject);
  });
}

describe('a request body dropped mid-way', () => {
  it('is not a storage fault: health stays 200 while aborted bodies arrive, and writes still go through', async () => {
    const statuses: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const res = await fetch(`${s.url}/api/health`);
        statuses.push(res.status);
        await res.body?.cancel();
        await new Promise((r) => setTimeout(r, 50));
      }
    })();

    const cookie = await s.login('admin');
    const sessionHeaders = { cookie, origin: s.url };
    for (let i = 0; i < 10; i++) {
      await abortMidBody('/api/v1/telemetry', { 'x-api-key': demoKey(LEVEL_1) });
      await abortMidBody('/api/v1/auth/login', {});
      await abortMidBody('/api/v1/devices', sessionHeaders);
    }
    // Past the health probe's wait, so that a fault recorded by an abort would show.
    await new Promise((r) => setTimeout(r, 2_500));
    polling = false;
    await poller;

    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((st) => st !== 200)).toEqual([]);
    const storage = await s.fetch('/api/v1/system/storage', { cookie });
    expect(((await storage.json()) as { fault: unknown }).fault).toBeNull();

    const before = await countReadings(s, LEVEL_1);
    const res = await postTelemetry(s, levelMsg(LEVEL_1, 2.5));
    expect(res.status).toBe(202);
    expect(await countReadings(s, LEVEL_1)).toBe(before + 1);
  });
});
