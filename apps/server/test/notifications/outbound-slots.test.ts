// docs/security.md "Outbound requests": receivers that drip their answers (headers, then a byte
// every 200 ms, never the end) hold a few sending slots for at most the attempt deadline. A
// healthy receiver of the same channel is attempted at once beside them — webhooks, push — and an
// SMTP server that drips its replies costs an attempt the deadline, never more. Real receivers
// over real HTTP/SMTP on loopback addresses of their own (127.0.0.2, 127.0.0.3: other hosts).
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Delivery, Webhook } from '@agua/shared';
import { SLOTS_PER_DESTINATION, SLOTS_PER_HOST } from '../../src/features/notifications/notifications.module';
import { jsonOf } from '../helpers/api';
import { GATE_2, waitFor } from '../helpers/protocol';
import { pushKeys, startDripReceiver, startDripSmtp, startReceiver, type DripReceiver, type DripSmtp, type HttpReceiver } from '../helpers/receivers';
import { startServer, tempDataDir, type TestServer } from '../helpers/server';

/** The attempt deadline of this server (NOTIFICATION_DEADLINE_MS): short, so that the test is. */
const DEADLINE_MS = 1500;

describe('outbound requests: drip receivers hold a few slots, for the deadline at most', () => {
  const dataDir = tempDataDir();
  let s: TestServer;
  let healthy: HttpReceiver;
  let dripHook: DripReceiver;
  let dripPush: DripReceiver;
  let dripSmtp: DripSmtp;
  let admin: string;
  let viewer: string;

  const deliveries = async () => (await jsonOf<{ items: Delivery[] }>(await s.fetch('/api/v1/notifications?limit=200', { cookie: admin }))).body.items;
  const createWebhook = async (name: string, url: string) => {
    const res = await jsonOf<Webhook>(await s.fetch('/api/v1/webhooks', { method: 'POST', cookie: admin, json: { name, url, minPriority: 1 } }));
    expect(res.status).toBe(201);
    return res.body.id;
  };

  beforeAll(async () => {
    [healthy, dripHook, dripPush, dripSmtp] = await Promise.all([startReceiver(), startDripReceiver('127.0.0.2'), startDripReceiver('127.0.0.3'), startDripSmtp()]);
    s = await startServer(
      {
        PUBLIC_URL: 'http://agua.test/',
        SMTP_URL: dripSmtp.url,
        PUSH_ALLOW_HTTP: 'true',
        PUSH_ALLOW_PRIVATE: 'true',
        NOTIFICATION_DEADLINE_MS: String(DEADLINE_MS),
      },
      { dataDir },
    );
    [admin, viewer] = await Promise.all([s.login('admin'), s.login('viewer')]);
  });
  afterAll(async () => {
    await s?.close();
    await Promise.all([healthy?.close(), dripHook?.close(), dripPush?.close(), dripSmtp?.close()]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('40 webhook deliveries to a drip receiver hold at most half the lane; a healthy webhook is sent at once', async () => {
    const drip = await createWebhook('Goteo', `${dripHook.url}/hook`);
    const fine = await createWebhook('Sano', `${healthy.url}/hook`);
    // 40 escalation rounds to the drip webhook: more deliveries than a host's 32 slots.
    const policy = { maxPriority: 2, afterMin: 1, repeatMin: 1, userIds: [], webhookIds: [drip] };
    expect((await s.fetch('/api/v1/notifications/escalation', { method: 'PUT', cookie: admin, json: policy })).status).toBe(200);
    const offline = (await waitFor(() => s.modules.alarms.engine.open().find((a) => a.deviceId === GATE_2 && a.kind === 'device_offline'), 5000))!;
    for (let round = 1; round <= 40; round++) await s.modules.notifications.service.escalate([offline], offline.raisedAtMs + round * 60_000 + 1);
    expect((await s.fetch('/api/v1/notifications/escalation', { method: 'PUT', cookie: admin, json: { ...policy, webhookIds: [] } })).status).toBe(200);
    await waitFor(() => dripHook.open >= SLOTS_PER_HOST, 5000);

    const t0 = Date.now();
    expect((await s.fetch(`/api/v1/webhooks/${fine}/test`, { method: 'POST', cookie: admin })).status).toBe(202);
    await waitFor(() => healthy.received.some((r) => r.path === '/hook'), 3000);
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(dripHook.maxOpen).toBeLessThanOrEqual(SLOTS_PER_HOST);

    // Every drip attempt ends at the deadline, and the log says so in words.
    const failed = (await waitFor(async () => (await deliveries()).find((d) => d.recipient.id === drip && d.lastError !== null), DEADLINE_MS + 3000))!;
    expect(failed.lastError).toBe('sin respuesta en el plazo');
    expect(failed.state).toBe('pending'); // retried with backoff
    await waitFor(() => dripHook.heldMs.length >= SLOTS_PER_HOST, DEADLINE_MS + 3000);
    expect(Math.max(...dripHook.heldMs)).toBeLessThan(DEADLINE_MS + 1000);
  });

  it('40 pushes to drip endpoints hold at most a few push slots; the admin\'s test push is attempted at once', async () => {
    const keys = pushKeys();
    for (let i = 1; i <= 10; i++) {
      const res = await s.fetch('/api/v1/notifications/me/push-subscriptions', { method: 'POST', cookie: viewer, json: { endpoint: `${dripPush.url}/v${i}`, keys: keys.keys } });
      expect(res.status).toBe(201);
    }
    for (let i = 0; i < 4; i++) expect((await s.fetch('/api/v1/notifications/me/test-push', { method: 'POST', cookie: viewer })).status).toBe(202);
    await waitFor(() => dripPush.open >= SLOTS_PER_DESTINATION, 5000);

    const adminKeys = pushKeys();
    const sub = await s.fetch('/api/v1/notifications/me/push-subscriptions', { method: 'POST', cookie: admin, json: { endpoint: `${healthy.url}/push/admin`, keys: adminKeys.keys } });
    expect(sub.status).toBe(201);
    const t0 = Date.now();
    expect((await s.fetch('/api/v1/notifications/me/test-push', { method: 'POST', cookie: admin })).status).toBe(202);
    const pushed = (await waitFor(() => healthy.received.find((r) => r.path === '/push/admin'), 3000))!;
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(JSON.parse(adminKeys.decrypt(pushed.raw)).title).toBe('Prueba de notificación · Panel de Control de Agua');
    expect(dripPush.maxOpen).toBeLessThanOrEqual(SLOTS_PER_DESTINATION);

    const failed = (await waitFor(async () => (await deliveries()).find((d) => d.channel === 'push' && d.recipient.label === 'viewer' && d.lastError !== null), DEADLINE_MS + 3000))!;
    expect(failed.lastError).toBe('sin respuesta en el plazo');
    expect(Math.max(...dripPush.heldMs)).toBeLessThan(DEADLINE_MS + 1000);
  });

  it('an SMTP server that drips its replies: each attempt ends at the deadline, its connection closed', async () => {
    expect((await s.fetch('/api/v1/notifications/test-email', { method: 'POST', cookie: admin })).status).toBe(202);
    const failed = (await waitFor(async () => (await deliveries()).find((d) => d.channel === 'email' && d.event === 'test' && d.lastError !== null), DEADLINE_MS * 4))!;
    expect(failed.lastError).toBe('sin respuesta en el plazo');
    await waitFor(() => dripSmtp.heldMs.length > 0, DEADLINE_MS + 3000);
    expect(Math.max(...dripSmtp.heldMs)).toBeLessThan(DEADLINE_MS + 1000);
  });
});
