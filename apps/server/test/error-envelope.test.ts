// docs/api.md "Errors": every 4xx is `{error, code}` with a Spanish text and a JSON content type, also
// when Node's HTTP parser, Fastify's router or the WebSocket handshake refuse a request before
// any route sees it (issue 10). Malformed requests go over raw sockets: no client would send them.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES, type ErrorCode } from '@agua/shared';
import { startServer, type TestServer } from './helpers/server';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends bytes as they are and parses the one response that comes back before the server closes. */
function rawRequest(s: TestServer, request: string): Promise<RawResponse> {
  const port = (s.app.server.address() as net.AddressInfo).port;
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    const timer = setTimeout(() => socket.destroy(new Error('no answer within 5 s')), 5000);
    socket.once('close', () => {
      clearTimeout(timer);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error(`not an HTTP response: ${JSON.stringify(received)}`));
      const [statusLine, ...lines] = received.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: received.slice(end + 4) });
    });
  });
}

/** Asserts status, a JSON content type and exactly the envelope of `code`. */
function expectEnvelope(res: RawResponse, status: number, code: ErrorCode): void {
  expect({ status: res.status, body: res.body }).toMatchObject({ status });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(JSON.parse(res.body)).toEqual({ error: ERROR_MESSAGES[code], code });
}

async function fetched(res: Response): Promise<RawResponse> {
  return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
}

const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}Connection: close\r\n\r\n`;

describe('the error envelope for requests refused before any route', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(async () => s.close());

  it('a badly percent-encoded URL → 400 INVALID_URL', async () => {
    expectEnvelope(await rawRequest(s, get('/api/v1/devices/%E0%A4%A')), 400, 'INVALID_URL');
  });

  it.each([
    ['a Content-Length that is not a number', 'POST /api/v1/telemetry HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'],
    ['two different Content-Lengths', 'POST /api/v1/telemetry HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}'],
    ['Content-Length and chunked together', 'POST /api/v1/telemetry HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
    ['a bad chunk size', 'POST /api/v1/telemetry HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n'],
    ['a header name with a space', 'GET /api/health HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n'],
    ['a method HTTP does not know', 'FOO /api/health HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['an unknown HTTP version', 'GET /api/health HTTP/9.9\r\nHost: x\r\n\r\n'],
    ['something that is not HTTP', 'HELLO\r\n\r\n'],
  ])('%s → 400 BAD_REQUEST', async (_name, request) => {
    expectEnvelope(await rawRequest(s, request), 400, 'BAD_REQUEST');
  });

  it('HTTP/1.1 without Host → 400 BAD_REQUEST (HTTP/1.0 needs none)', async () => {
    expectEnvelope(await rawRequest(s, 'GET /api/health HTTP/1.1\r\nConnection: close\r\n\r\n'), 400, 'BAD_REQUEST');
    const old = await rawRequest(s, 'GET /api/health HTTP/1.0\r\n\r\n');
    expect(old.status).toBe(200);
  });

  it('an Expect other than 100-continue → 417 EXPECTATION_FAILED', async () => {
    expectEnvelope(await rawRequest(s, get('/api/health', 'Expect: teapot\r\n')), 417, 'EXPECTATION_FAILED');
  });

  it('a refused WebSocket handshake → 400 BAD_REQUEST, with the version the server speaks', async () => {
    const cookie = await s.login('viewer');
    const badVersion =
      'GET /api/v1/live HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
      `Cookie: ${cookie}\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 99\r\n\r\n`;
    const res = await rawRequest(s, badVersion);
    expectEnvelope(res, 400, 'BAD_REQUEST');
    expect(res.headers['sec-websocket-version']).toBe('13');
    const notWebSocket = 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\n';
    expectEnvelope(await rawRequest(s, notWebSocket), 400, 'BAD_REQUEST');
  });

  it('URLs too long (431, 414), unknown routes and methods (404): the envelope too', async () => {
    expectEnvelope(await fetched(await s.fetch(`/api/v1/devices/${'a'.repeat(20_000)}`)), 431, 'HEADERS_TOO_LARGE');
    expectEnvelope(await fetched(await s.fetch(`/api/v1/devices/${'a'.repeat(200)}`)), 414, 'URL_TOO_LONG');
    expectEnvelope(await fetched(await s.fetch('/api/v1/nope')), 404, 'ROUTE_NOT_FOUND');
    expectEnvelope(await fetched(await s.fetch('/api/health', { method: 'PUT' })), 404, 'ROUTE_NOT_FOUND');
    expectEnvelope(await fetched(await s.fetch('/api/health', { method: 'PROPFIND' })), 404, 'ROUTE_NOT_FOUND');
    expect((await s.fetch('/api/health')).status).toBe(200);
  });
});

describe('a request that does not arrive in time (REQUEST_TIMEOUT_S=1)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ REQUEST_TIMEOUT_S: '1' });
  });
  afterAll(async () => s.close());

  it('→ 408 REQUEST_TIMEOUT in the envelope', async () => {
    expectEnvelope(await rawRequest(s, 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n'), 408, 'REQUEST_TIMEOUT');
  });
});
