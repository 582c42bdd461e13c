// TRUST_PROXY: behind a reverse proxy the client's address, scheme and host come from the
// proxy's X-Forwarded-* headers, and only from proxies named in TRUST_PROXY (issue 10, item 3).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORDS, startServer, type TestServer } from '../helpers/server';
import { jsonOf, type AuditEvent } from '../helpers/api';
import { sqlRun } from '../helpers/sql';

interface ProxyAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A minimal reverse proxy in the manner of nginx's `proxy_add_x_forwarded_for`: it forwards each
 * request to the server, adding the client's socket address to X-Forwarded-For and saying
 * which scheme and host the client used.
 */
async function startProxy(target: string, forwarded: { proto: string; host: string }): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const prior = req.headers['x-forwarded-for'];
      const headers = {
        ...req.headers,
        host: upstream.host,
        'x-forwarded-for': prior ? `${String(prior)}, ${req.socket.remoteAddress}` : req.socket.remoteAddress,
        'x-forwarded-proto': forwarded.proto,
        'x-forwarded-host': forwarded.host,
      };
      const out = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      out.on('error', () => res.writeHead(502).end());
      out.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A request from a chosen loopback source address (each one is a different "client"). */
function requestFrom(
  localAddress: string,
  baseUrl: string,
  pathname: string,
  opts: { method?: string; json?: unknown; headers?: Record<string, string> } = {},
): Promise<ProxyAnswer> {
  const url = new URL(pathname, baseUrl);
  const body = opts.json === undefined ? undefined : JSON.stringify(opts.json);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: opts.method ?? 'GET',
        localAddress,
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...opts.headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const login = (from: string, base: string, creds: unknown, headers: Record<string, string> = {}) =>
  requestFrom(from, base, '/api/v1/auth/login', { method: 'POST', json: creds, headers });

async function loginFailures(s: TestServer, adminCookie: string): Promise<AuditEvent[]> {
  const res = await s.fetch('/api/v1/audit?action=auth.login_failed&limit=200', { cookie: adminCookie });
  const { status, body } = await jsonOf<{ items: AuditEvent[] }>(res);
  expect(status).toBe(200);
  return body.items;
}

const CLIENT_A = '127.0.0.2';
const CLIENT_B = '127.0.0.3';

describe('behind a trusted proxy (TRUST_PROXY=127.0.0.1)', () => {
  let s: TestServer;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let adminCookie: string;

  beforeAll(async () => {
    s = await startServer({ TRUST_PROXY: '127.0.0.1' });
    proxy = await startProxy(s.url, { proto: 'https', host: 'agua.example.org' });
    adminCookie = await s.login('admin');
  });
  afterAll(async () => {
    await proxy.close();
    await s.close();
  });
  afterEach(async () => {
    await sqlRun(s, 'DELETE FROM login_failures');
  });

  it('locks out only the client that guessed, not everybody behind the proxy', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await login(CLIENT_A, proxy.url, { username: 'operator', password: `wrong-guess-${i}` });
      expect(res.status).toBe(401);
    }
    expect((await login(CLIENT_A, proxy.url, DEMO_PASSWORDS.operator)).status).toBe(429);
    // The real operator, at another desk, still signs in through the same proxy.
    expect((await login(CLIENT_B, proxy.url, DEMO_PASSWORDS.operator)).status).toBe(200);
  });

  it('the address limit is per client too: a spray from one client leaves the admin free elsewhere', async () => {
    for (let i = 0; i < 20; i++) await login(CLIENT_A, proxy.url, { username: `spray-${i}`, password: 'wrong-spray-1' });
    expect((await login(CLIENT_A, proxy.url, DEMO_PASSWORDS.viewer)).status).toBe(429);
    expect((await login(CLIENT_B, proxy.url, DEMO_PASSWORDS.admin)).status).toBe(200);
  });

  it("the audit records the client's address, not the proxy's", async () => {
    await login(CLIENT_A, proxy.url, { username: 'audit-through-proxy', password: 'wrong-audit-proxy' });
    const event = (await loginFailures(s, adminCookie)).find((e) => e.username === 'audit-through-proxy');
    expect(event?.ip).toBe(CLIENT_A);
  });

  it('a client cannot pick its address: what it puts in X-Forwarded-For stays behind the proxy-added hop', async () => {
    await login(CLIENT_A, proxy.url, { username: 'forged-xff', password: 'wrong-forged-1' }, { 'x-forwarded-for': '198.51.100.9' });
    const event = (await loginFailures(s, adminCookie)).find((e) => e.username === 'forged-xff');
    expect(event?.ip).toBe(CLIENT_A);
  });

  it('the session cookie is Secure when the proxy says the client used HTTPS', async () => {
    const res = await login(CLIENT_B, proxy.url, DEMO_PASSWORDS.viewer, { origin: 'https://agua.example.org' });
    expect(res.status).toBe(200);
    const cookie = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('agua_session='));
    expect(cookie).toMatch(/;\s*Secure/i);
  });

  it('the CSRF check compares the Origin with the forwarded scheme and host', async () => {
    const ok = await login(CLIENT_B, proxy.url, DEMO_PASSWORDS.viewer, { origin: 'https://agua.example.org' });
    expect(ok.status).toBe(200);
    const foreign = await login(CLIENT_B, proxy.url, DEMO_PASSWORDS.viewer, { origin: 'http://agua.example.org' });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toMatchObject({ code: 'CSRF_REJECTED' });
  });
});

describe('without TRUST_PROXY (the default) and with a proxy that is not the peer', () => {
  let open: TestServer;
  let other: TestServer;

  beforeAll(async () => {
    open = await startServer({});
    other = await startServer({ TRUST_PROXY: '10.1.2.3, 192.168.0.0/16' });
  });
  afterAll(async () => {
    await open.close();
    await other.close();
  });

  for (const [name, server] of [
    ['no trusted proxy', () => open],
    ['trusted proxy elsewhere', () => other],
  ] as const) {
    it(`${name}: forwarded headers from the peer are ignored (address, scheme)`, async () => {
      const s = server();
      const res = await login(CLIENT_A, s.url, { username: `spoof-${name}`, password: 'wrong-spoof-1' }, {
        'x-forwarded-for': '203.0.113.50',
        'x-forwarded-proto': 'https',
      });
      expect(res.status).toBe(401);
      const adminCookie = await s.login('admin');
      const event = (await loginFailures(s, adminCookie)).find((e) => e.username === `spoof-${name}`);
      expect(event?.ip).toBe(CLIENT_A);
      const ok = await login(CLIENT_B, s.url, DEMO_PASSWORDS.viewer, { 'x-forwarded-proto': 'https' });
      const cookie = [ok.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('agua_session='));
      expect(cookie).toBeDefined();
      expect(cookie).not.toMatch(/;\s*Secure/i);
    });
  }
});

/** The JSON lines a server logs, as they are written (pino writes to the stream synchronously). */
function logCollector(): { stream: Writable; lines: () => Array<{ level: number; msg: string; [key: string]: unknown }> } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, lines: () => text.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { level: number; msg: string }) };
}

describe('X-Forwarded-For without TRUST_PROXY: one warning in the log', () => {
  const untrusted = logCollector();
  const trusted = logCollector();
  let open: TestServer;
  let behind: TestServer;
  const warnings = (log: ReturnType<typeof logCollector>) => log.lines().filter((l) => l.msg.includes('X-Forwarded-For ignored'));

  beforeAll(async () => {
    open = await startServer({}, { logTo: untrusted.stream });
    behind = await startServer({ TRUST_PROXY: '127.0.0.1' }, { logTo: trusted.stream });
  });
  afterAll(async () => {
    await open?.close();
    await behind?.close();
  });

  it('warns once, at warn level, naming TRUST_PROXY and what goes wrong without it', async () => {
    expect((await requestFrom(CLIENT_A, open.url, '/api/health')).status).toBe(200);
    expect(warnings(untrusted)).toEqual([]);
    for (let i = 0; i < 3; i++) {
      const res = await requestFrom(CLIENT_A, open.url, '/api/health', { headers: { 'x-forwarded-for': `203.0.113.${i + 1}` } });
      expect(res.status).toBe(200);
    }
    const [warning, ...more] = warnings(untrusted);
    expect(more).toEqual([]);
    expect(warning).toMatchObject({ level: 40, peer: CLIENT_A, setting: 'TRUST_PROXY' });
    expect(warning!.msg).toMatch(/TRUST_PROXY is not set/);
    expect(warning!.msg).toMatch(/lock the account out for everyone/);
    expect(warning!.msg).toMatch(/Set TRUST_PROXY to the proxy/);
  });

  it('says nothing when TRUST_PROXY names the proxy', async () => {
    const proxy = await startProxy(behind.url, { proto: 'http', host: 'agua.example.org' });
    try {
      expect((await requestFrom(CLIENT_A, proxy.url, '/api/health')).status).toBe(200);
      expect((await requestFrom(CLIENT_B, behind.url, '/api/health', { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(200);
    } finally {
      await proxy.close();
    }
    expect(trusted.lines().length).toBeGreaterThan(0); // the log is being written
    expect(warnings(trusted)).toEqual([]);
  });
});

describe('TRUST_PROXY values', () => {
  it('refuses values that would trust everyone or are not addresses', async () => {
    const { loadConfig, ConfigError } = await import('../../src/config/env');
    for (const bad of ['true', '1', '*', 'proxy.example.org', '10.0.0.0/33', '::1/129', '10.0.0.1/8/1']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(ConfigError);
    }
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.1, 10.0.0.0/8 ,loopback,::1,fd00::/8' }).trustProxy).toEqual([
      '10.0.0.1',
      '10.0.0.0/8',
      'loopback',
      '::1',
      'fd00::/8',
    ]);
    expect(loadConfig({}).trustProxy).toEqual([]);
  });
});
