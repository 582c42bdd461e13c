// docs/security.md "Sessions" and "Address allowlist": one's own sessions listed and ended (their
// live sockets closed), another user's only with manage_users; ALLOWED_NETWORKS refusing sign-in,
// session routes and the live socket from elsewhere, the session living on, devices untouched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_CLOSE_SESSION_ENDED } from '@agua/shared';
import { loadConfig } from '../../src/config/env';
import { DEMO_PASSWORDS, sessionCookieOf, startServer, type TestServer } from '../helpers/server';
import { auditPage, expectApiError, jsonOf } from '../helpers/api';
import { gateMsg, openLive, postTelemetry } from '../helpers/protocol';

interface Session {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  address: string | null;
  userAgent: string | null;
  current: boolean;
}

describe('sessions', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(async () => s.close());

  const loginAs = async (role: keyof typeof DEMO_PASSWORDS, agent: string) => {
    const res = await s.fetch('/api/v1/auth/login', { method: 'POST', json: DEMO_PASSWORDS[role], headers: { 'user-agent': agent } });
    expect(res.status).toBe(200);
    return sessionCookieOf(res);
  };

  it('lists one’s own, newest first, ids that are not tokens; ends one (its live socket closes with 4401), audited', async () => {
    const first = await loginAs('operator', 'Navegador A');
    const second = await loginAs('operator', 'Navegador B');
    const { status, body } = await jsonOf<Session[]>(await s.fetch('/api/v1/auth/sessions', { cookie: second }));
    expect(status).toBe(200);
    const mine = body.filter((x) => x.userAgent === 'Navegador A' || x.userAgent === 'Navegador B');
    expect(mine.map((x) => [x.userAgent, x.current])).toEqual([
      ['Navegador B', true],
      ['Navegador A', false],
    ]);
    expect(mine[0]!.address).toBe('127.0.0.1');
    for (const x of body) {
      expect(first).not.toContain(x.id);
      expect(second).not.toContain(x.id);
    }
    const opened = await openLive(s, { cookie: first, origin: s.url });
    expect(opened.status).toBe(101);
    const ended = await s.fetch(`/api/v1/auth/sessions/${mine[1]!.id}`, { method: 'DELETE', cookie: second, headers: { origin: s.url } });
    expect(ended.status).toBe(204);
    expect(await opened.live!.closed()).toBe(LIVE_CLOSE_SESSION_ENDED);
    expect((await s.fetch('/api/v1/auth/me', { cookie: first })).status).toBe(401);
    expect((await s.fetch('/api/v1/auth/me', { cookie: second })).status).toBe(200);
    const admin = await s.login('admin');
    expect((await auditPage(s, admin, { action: 'auth.session_revoked' })).length).toBeGreaterThan(0);
  });

  it('another user’s: 404 without manage_users, listed and ended by an administrator', async () => {
    const viewer = await loginAs('viewer', 'Tableta');
    const operator = await s.login('operator');
    const admin = await s.login('admin');
    const { body: viewerOwn } = await jsonOf<Session[]>(await s.fetch('/api/v1/auth/sessions', { cookie: viewer }));
    const target = viewerOwn.find((x) => x.current)!;
    await expectApiError(await s.fetch(`/api/v1/auth/sessions/${target.id}`, { method: 'DELETE', cookie: operator, headers: { origin: s.url } }), 404, 'SESSION_NOT_FOUND');
    const { body: me } = await jsonOf<{ id: string }>(await s.fetch('/api/v1/auth/me', { cookie: viewer }));
    await expectApiError(await s.fetch(`/api/v1/auth/sessions?userId=${me.id}`, { cookie: operator }), 403);
    const listed = await jsonOf<Session[]>(await s.fetch(`/api/v1/auth/sessions?userId=${me.id}`, { cookie: admin }));
    expect(listed.body.map((x) => x.id)).toContain(target.id);
    expect((await s.fetch(`/api/v1/auth/sessions/${target.id}`, { method: 'DELETE', cookie: admin, headers: { origin: s.url } })).status).toBe(204);
    expect((await s.fetch('/api/v1/auth/me', { cookie: viewer })).status).toBe(401);
  });
});

describe('ALLOWED_NETWORKS', () => {
  it('a bad entry stops the start, naming it', () => {
    expect(() => loadConfig({ ALLOWED_NETWORKS: '10.0.0.0/8, 300.1.1.1' })).toThrow(/ALLOWED_NETWORKS.*300\.1\.1\.1/);
  });

  describe('with TRUST_PROXY=loopback and ALLOWED_NETWORKS=10.0.0.0/8,2001:db8::/32', () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startServer({ TRUST_PROXY: 'loopback', ALLOWED_NETWORKS: '10.0.0.0/8,2001:db8::/32' });
    });
    afterAll(async () => s.close());
    const from = (address: string) => ({ 'x-forwarded-for': address });

    it('signs in from inside, refuses sign-in, session routes and the live socket from outside; the session lives on; health, config and devices are untouched', async () => {
      const outside = await s.fetch('/api/v1/auth/login', { method: 'POST', json: DEMO_PASSWORDS.operator, headers: from('192.0.2.7') });
      await expectApiError(outside, 403, 'ADDRESS_NOT_ALLOWED', 'Acceso no permitido desde esta dirección de red.');
      const inside = await s.fetch('/api/v1/auth/login', { method: 'POST', json: DEMO_PASSWORDS.operator, headers: from('10.4.5.6') });
      expect(inside.status).toBe(200);
      const cookie = sessionCookieOf(inside);
      await expectApiError(await s.fetch('/api/v1/devices', { cookie, headers: from('192.0.2.7') }), 403, 'ADDRESS_NOT_ALLOWED');
      await expectApiError(await s.fetch('/api/v1/auth/sessions', { cookie, headers: from('::ffff:192.0.2.7') }), 403, 'ADDRESS_NOT_ALLOWED');
      const live = await openLive(s, { cookie, origin: s.url, ...from('192.0.2.7') });
      expect(live.status).toBe(403);
      // The session lives on: from inside (IPv4-mapped, or the IPv6 range) it still works.
      expect((await s.fetch('/api/v1/devices', { cookie, headers: from('::ffff:10.4.5.6') })).status).toBe(200);
      expect((await s.fetch('/api/v1/auth/me', { cookie, headers: from('2001:db8::5') })).status).toBe(200);
      // Not affected.
      expect((await s.fetch('/api/health', { headers: from('192.0.2.7') })).status).toBe(200);
      expect((await s.fetch('/api/v1/config', { headers: from('192.0.2.7') })).status).toBe(200);
      expect((await postTelemetry(s, gateMsg('esp32_compuerta_01', 'cerrada'), { headers: from('192.0.2.7') })).status).toBe(202);
      // Refusals are not sign-in failures: five more from outside, then the right password from inside still signs in.
      for (let i = 0; i < 6; i++) await s.fetch('/api/v1/auth/login', { method: 'POST', json: { username: 'operator', password: 'wrong-password' }, headers: from('192.0.2.7') });
      expect((await s.fetch('/api/v1/auth/login', { method: 'POST', json: DEMO_PASSWORDS.operator, headers: from('10.4.5.6') })).status).toBe(200);
      const adminRes = await s.fetch('/api/v1/auth/login', { method: 'POST', json: DEMO_PASSWORDS.admin, headers: from('10.0.0.1') });
      const trail = await jsonOf<{ items: Array<{ ip: string }> }>(await s.fetch('/api/v1/audit?action=auth.address_refused&limit=50', { cookie: sessionCookieOf(adminRes), headers: from('10.0.0.1') }));
      expect(trail.body.items.length).toBeGreaterThan(0);
      expect(new Set(trail.body.items.map((e) => e.ip))).toEqual(new Set(['192.0.2.7', '::ffff:192.0.2.7']));
    });
  });
});
