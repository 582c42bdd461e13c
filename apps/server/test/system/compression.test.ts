// Long list answers travel gzipped when the client accepts it (a day of readings is ~100 KiB of
// JSON); the device routes, which answer a few bytes many times a second, are left alone.
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEVEL_1, levelMsg, postTelemetry } from '../helpers/protocol';
import { startServer, type TestServer } from '../helpers/server';

let s: TestServer;
let cookie: string;

beforeAll(async () => {
  s = await startServer({ DEVICE_RATE_LIMIT: '0' });
  cookie = await s.login('viewer');
  const base = Date.now() - 60 * 60_000;
  const batch = Array.from({ length: 200 }, (_, i) => levelMsg(LEVEL_1, 1 + (i % 50) / 10, { ts: new Date(base + i * 10_000).toISOString(), seq: i + 1, boot: 'compression' }));
  expect((await postTelemetry(s, batch)).status).toBe(202);
});

afterAll(async () => {
  await s.close();
});

/** A raw GET (fetch would decompress by itself): status, headers and the bytes as sent. */
function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${s.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

describe('compressed list answers', () => {
  it('a page of readings is gzipped for a client that accepts it, and is the same JSON', async () => {
    const path = `/api/v1/devices/${LEVEL_1}/readings?limit=200`;
    const plain = await rawGet(path, { cookie });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const zipped = await rawGet(path, { cookie, 'accept-encoding': 'gzip' });
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/accept-encoding/i);
    expect(zipped.body.length).toBeLessThan(plain.body.length / 3);
    expect(JSON.parse(gunzipSync(zipped.body).toString())).toEqual(JSON.parse(plain.body.toString()));
  });

  it('the device list is gzipped too; a device route answer is not', async () => {
    const devices = await rawGet('/api/v1/devices', { cookie, 'accept-encoding': 'gzip' });
    expect(devices.headers['content-encoding']).toBe('gzip');
    const res = await postTelemetry(s, levelMsg(LEVEL_1, 2), { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(202);
    expect(res.headers.get('content-encoding')).toBeNull();
  });
});
