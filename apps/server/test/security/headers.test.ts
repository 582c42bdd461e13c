// Security headers, no caching of API answers, no source maps by default and a cap on live
// sockets per session (issue 10, item 8).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server';
import { openLive, type LiveSocket } from '../helpers/protocol';
import { MAX_LIVE_SOCKETS_PER_SESSION } from '../../src/features/live/live.routes';

/** A stand-in for apps/web/dist: an entry page, a hashed asset and its source map. */
function fakeWebDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-dist-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Panel</title><script type="module" src="/assets/app-1.js"></script>');
  fs.writeFileSync(path.join(dir, 'assets/app-1.js'), 'console.log(1);\n');
  fs.writeFileSync(path.join(dir, 'assets/app-1.js.map'), '{"version":3,"sources":["secret-source.tsx"]}');
  return dir;
}

describe('security headers and caching', () => {
  let s: TestServer;
  let dist: string;
  beforeAll(async () => {
    dist = fakeWebDist();
    s = await startServer({ WEB_DIST_DIR: dist });
  });
  afterAll(async () => {
    await s.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('the app page carries a CSP without inline scripts, no framing and nosniff', async () => {
    const res = await s.fetch('/');
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('API JSON is never cached, errors included; hashed assets still are', async () => {
    const cookie = await s.login('viewer');
    for (const [pathname, status] of [
      ['/api/v1/devices', 200],
      ['/api/v1/auth/me', 200],
      ['/api/v1/users', 403],
      ['/api/v1/nothing-here', 404],
    ] as const) {
      const res = await s.fetch(pathname, { cookie });
      expect(res.status, pathname).toBe(status);
      expect(res.headers.get('cache-control'), pathname).toBe('no-store');
      expect(res.headers.get('x-content-type-options'), pathname).toBe('nosniff');
    }
    expect((await s.fetch('/api/health')).headers.get('cache-control')).toBe('no-store');
    const asset = await s.fetch('/assets/app-1.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });

  it('source maps are not served by default', async () => {
    const res = await s.fetch('/assets/app-1.js.map');
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('secret-source');
    expect((await s.fetch('/assets/app-1.js.map?x=1')).status).toBe(404);
  });
});

describe('SERVE_SOURCE_MAPS=true', () => {
  it('serves them when asked for', async () => {
    const dist = fakeWebDist();
    const s = await startServer({ WEB_DIST_DIR: dist, SERVE_SOURCE_MAPS: 'true' });
    try {
      const res = await s.fetch('/assets/app-1.js.map');
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('secret-source');
    } finally {
      await s.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });
});

describe('live sockets per session', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({});
  });
  afterAll(async () => s.close());

  it(`a session holds at most ${MAX_LIVE_SOCKETS_PER_SESSION}; the next is refused with 429 until one closes`, async () => {
    const cookie = await s.login('viewer');
    const open: LiveSocket[] = [];
    try {
      for (let i = 0; i < MAX_LIVE_SOCKETS_PER_SESSION; i++) {
        const r = await openLive(s, { cookie });
        expect(r.live, `socket ${i + 1}`).not.toBeNull();
        open.push(r.live!);
      }
      const refused = await openLive(s, { cookie });
      expect(refused.status).toBe(429);
      expect(refused.live).toBeNull();
      if (refused.live === null) expect(JSON.parse(refused.body)).toMatchObject({ code: 'TOO_MANY_LIVE_SOCKETS' });

      // Another session of the same user is not affected.
      const other = await openLive(s, { cookie: await s.login('viewer') });
      expect(other.live).not.toBeNull();
      other.live?.close();

      open.shift()!.close();
      await new Promise((r) => setTimeout(r, 200));
      const again = await openLive(s, { cookie });
      expect(again.live).not.toBeNull();
      open.push(again.live!);
    } finally {
      for (const l of open) l.close();
    }
  });
});
