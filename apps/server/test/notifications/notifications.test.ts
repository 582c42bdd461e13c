// docs/alarms.md "Notifications" over real parts: a real SMTP server receives the e-mails, a real HTTP
// receiver the webhooks (signature checked), a local push endpoint decrypts Web Push (RFC 8291).
// Raised and 'Normalizada' reach whoever chose them, a failing receiver gets retries until it
// recovers, escalation rounds are written once, the delivery log shows every attempt, a receiver
// that never answers does not hold up ingest, and a restart resumes the outbox.
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Delivery, MyNotifications, Webhook } from '@agua/shared';
import { expectApiError, jsonOf } from '../helpers/api';
import { GATE_2, LEVEL_1, LEVEL_2, levelMsg, postTelemetry, waitFor } from '../helpers/protocol';
import { pushKeys, startMailbox, startReceiver, type HttpReceiver, type Mailbox } from '../helpers/receivers';
import { startServer, tempDataDir, type TestServer } from '../helpers/server';

type Body = { id: string; event: string; title: string; text: string; priority: number | null; alarmId: string | null; deviceId: string | null; link: string | null };

describe('notifications', () => {
  const dataDir = tempDataDir();
  let s: TestServer;
  let mailbox: Mailbox;
  let hook: HttpReceiver;
  let pushService: HttpReceiver;
  let admin: string;
  let operator: string;
  let viewer: string;
  let hookId: string;
  let secret: string;
  let ts = Date.now() - 600_000;
  const push = pushKeys();

  const env = () => ({ SMTP_URL: mailbox.url, PUBLIC_URL: 'http://agua.test/planta/', PUSH_ALLOW_HTTP: 'true', PUSH_ALLOW_PRIVATE: 'true', DEVICE_RATE_LIMIT: '0', LOG_LEVEL: 'silent' });
  const level = async (value: number) => {
    ts += 1000;
    const res = await postTelemetry(s, levelMsg(LEVEL_2, value, { ts }));
    expect(res.status).toBe(202);
  };
  const hookBodies = () => hook.received.map((r) => JSON.parse(r.raw.toString('utf8')) as Body);
  const deliveries = async (query = '') => (await jsonOf<{ items: Delivery[] }>(await s.fetch(`/api/v1/notifications?limit=200${query}`, { cookie: admin }))).body.items;

  beforeAll(async () => {
    [mailbox, hook, pushService] = await Promise.all([startMailbox(), startReceiver(), startReceiver()]);
    s = await startServer(env(), { dataDir });
    [admin, operator, viewer] = await Promise.all([s.login('admin'), s.login('operator'), s.login('viewer')]);
  });
  afterAll(async () => {
    await s?.close();
    await Promise.all([mailbox?.close(), hook?.close(), pushService?.close()]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('webhooks are the admin\'s: created with a secret shown once, never listed; others get 403; bad values a clear error', async () => {
    const created = await jsonOf<Webhook & { secret: string }>(
      await s.fetch('/api/v1/webhooks', { method: 'POST', cookie: admin, json: { name: 'Sala de control', url: `${hook.url}/avisos`, minPriority: 2 } }),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Sala de control', format: 'generic', minPriority: 2, enabled: true });
    expect(created.body.secret.length).toBeGreaterThanOrEqual(32);
    hookId = created.body.id;
    secret = created.body.secret;
    const listed = await jsonOf<Webhook[]>(await s.fetch('/api/v1/webhooks', { cookie: admin }));
    expect(listed.body.map((w) => w.id)).toEqual([hookId]);
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    await expectApiError(await s.fetch('/api/v1/webhooks', { cookie: operator }), 403);
    await expectApiError(await s.fetch('/api/v1/notifications', { cookie: viewer }), 403);
    await expectApiError(await s.fetch('/api/v1/webhooks', { method: 'POST', cookie: admin, json: { name: 'x', url: 'ftp://example.org/x' } }), 400);
    await expectApiError(await s.fetch('/api/v1/webhooks', { method: 'POST', cookie: admin, json: { name: 'x', url: 'https://example.org', format: 'telegram' } }), 422, 'WEBHOOK_CHAT_ID_REQUIRED');
    await expectApiError(await s.fetch('/api/v1/webhooks/whk_nope', { method: 'PATCH', cookie: admin, json: { enabled: false } }), 404, 'WEBHOOK_NOT_FOUND');
  });

  it("'Mis notificaciones': defaults e-mail and push for 1–2; a browser turns push on; http push endpoints refused unless allowed", async () => {
    const mine = await jsonOf<MyNotifications>(await s.fetch('/api/v1/notifications/me', { cookie: operator }));
    expect(mine.body).toMatchObject({ preferences: { email: { minPriority: 2 }, push: { minPriority: 2 } }, email: 'juan.perez@aguas.example', channels: { email: true, push: true }, pushSubscriptions: 0 });
    expect(mine.body.vapidPublicKey).toMatch(/^[A-Za-z0-9_-]{80,}$/);
    const sub = await s.fetch('/api/v1/notifications/me/push-subscriptions', { method: 'POST', cookie: operator, json: { endpoint: `${pushService.url}/push/op`, keys: push.keys } });
    expect(sub.status).toBe(201);
    expect(((await sub.json()) as MyNotifications).pushSubscriptions).toBe(1);
    // The viewer wants nothing by e-mail.
    const saved = await jsonOf<MyNotifications>(await s.fetch('/api/v1/notifications/me', { method: 'PUT', cookie: viewer, json: { email: { minPriority: null }, push: { minPriority: 1 } } }));
    expect(saved.body.preferences).toEqual({ email: { minPriority: null }, push: { minPriority: 1 } });
    await expectApiError(await s.fetch('/api/v1/notifications/me', { method: 'PUT', cookie: viewer, json: { email: { minPriority: 7 }, push: { minPriority: 1 } } }), 400);
    await expectApiError(await s.fetch('/api/v1/notifications/me/test-push', { method: 'POST', cookie: viewer }), 404, 'PUSH_SUBSCRIPTION_NOT_FOUND');
  });

  it('a level over HH reaches the webhook (signed), the mailboxes and the push endpoint; its return sends Normalizada to the same people', async () => {
    await level(4.6); // 92 % of 5 m: HH (1) and H (3)
    const raised = (await waitFor(() => hookBodies().find((b) => b.event === 'raised' && b.deviceId === LEVEL_2), 5000))!;
    expect(raised).toMatchObject({ priority: 1, link: 'http://agua.test/planta/alarms' });
    expect(raised.title).toBe('Crítica · Nivel muy alto: 4,60 m (92 % de 5,00 m)');
    const request = hook.received.find((r) => JSON.parse(r.raw.toString()).id === raised.id)!;
    expect(request.path).toBe('/avisos');
    expect(request.headers['x-agua-signature']).toBe(`sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(request.raw).digest('hex')}`);
    expect(request.headers['x-agua-delivery']).toBe(raised.id);
    // Priority 3 (H) is below the webhook's lowest priority (2): not sent.
    expect(hookBodies().filter((b) => b.deviceId === LEVEL_2 && b.priority === 3)).toHaveLength(0);

    const mails = (await waitFor(() => {
      const m = mailbox.mails.filter((x) => x.subject?.includes('Nivel muy alto'));
      return m.length >= 2 ? m : null;
    }, 5000))!;
    const to = mails.map((m) => (Array.isArray(m.to) ? m.to[0] : m.to)?.text).sort();
    expect(to).toEqual(['juan.perez@aguas.example', 'maria.gonzalez@aguas.example']); // the viewer chose no e-mail
    expect(mails[0]!.text).toContain('http://agua.test/planta/alarms');
    expect(mails[0]!.html).toContain('<a href="http://agua.test/planta/alarms">');

    const pushed = (await waitFor(() => pushService.received.find((r) => r.path === '/push/op'), 5000))!;
    expect(pushed.headers['content-encoding']).toBe('aes128gcm');
    expect(String(pushed.headers.authorization)).toMatch(/^vapid t=.+, k=.+/);
    const payload = JSON.parse(push.decrypt(pushed.raw)) as { title: string; alarmId: string; link: string };
    expect(payload.title).toBe('Crítica · Nivel muy alto: 4,60 m (92 % de 5,00 m)');
    expect(payload.link).toBe('http://agua.test/planta/alarms');

    await level(2); // back under every setpoint
    const normal = (await waitFor(() => hookBodies().find((b) => b.event === 'cleared' && b.alarmId === raised.alarmId), 5000))!;
    expect(normal.title).toMatch(/^Normalizada: Crítica · /);
    await waitFor(() => mailbox.mails.filter((m) => m.subject?.startsWith('Normalizada: Crítica')).length === 2, 5000);

    // Outcomes are settled in batches: the log catches up within moments.
    const log = (await waitFor(async () => {
      const rows = await deliveries(`&alarmId=${raised.alarmId}`);
      return rows.every((d) => d.state === 'sent') ? rows : null;
    }, 5000))!;
    expect(log.filter((d) => d.event === 'raised').map((d) => d.channel).sort()).toEqual(['email', 'email', 'push', 'webhook']);
    expect(log.every((d) => d.attempts === 1 && d.lastError === null)).toBe(true);
  });

  it('a receiver that answers 500 is tried again with backoff until it recovers; the log shows the attempts', async () => {
    hook.answers.push(500, 500);
    const before = hook.received.length;
    const queued = await jsonOf<{ queued: number }>(await s.fetch(`/api/v1/webhooks/${hookId}/test`, { method: 'POST', cookie: admin }));
    expect(queued).toEqual({ status: 202, body: { queued: 1 } });
    const test = (await waitFor(async () => (await deliveries()).find((d) => d.event === 'test' && d.state === 'sent'), 10_000))!;
    expect(test.attempts).toBe(3);
    expect(hook.received.length - before).toBe(3);
    const bodies = hook.received.slice(before).map((r) => JSON.parse(r.raw.toString()) as Body);
    expect(new Set(bodies.map((b) => b.id))).toEqual(new Set([test.id])); // one delivery id on every attempt
  });

  it('e-mails waiting for the same person at once go as one digest (an alarm flood is not a flood of e-mails)', async () => {
    const cookie = operator;
    expect((await s.fetch('/api/v1/notifications/me', { method: 'PUT', cookie, json: { email: { minPriority: 4 }, push: { minPriority: null } } })).status).toBe(200);
    try {
      const before = mailbox.mails.length;
      // 95 % of esp32_nivel_01's 10 m: HH (Crítica) and H (Media) in one batch.
      const res = await postTelemetry(s, levelMsg(LEVEL_1, 9.5, { ts: Date.now() }));
      expect(res.status).toBe(202);
      const digest = (await waitFor(() => mailbox.mails.slice(before).find((m) => m.subject?.startsWith('2 avisos de alarma')), 5000))!;
      expect((Array.isArray(digest.to) ? digest.to[0] : digest.to)?.text).toBe('juan.perez@aguas.example');
      expect(digest.text).toContain('Crítica · Nivel muy alto: 9,50 m');
      expect(digest.text).toContain('Media · Nivel alto: 9,50 m');
      expect(String(digest.headers.get('x-agua-delivery')).split(' ')).toHaveLength(2);
      // Each of the two notifications is its own row in the log, both sent by that one message.
      const rows = (await deliveries()).filter((d) => d.channel === 'email' && d.recipient.label === 'operator' && d.title.includes('9,50 m'));
      expect(rows).toHaveLength(2);
    } finally {
      await s.fetch('/api/v1/notifications/me', { method: 'PUT', cookie, json: { email: { minPriority: 2 }, push: { minPriority: 2 } } });
    }
  });

  it('escalation: an alarm still unack after N minutes goes to the policy\'s targets, once per round', async () => {
    const esc = await startReceiver();
    try {
      const w = await jsonOf<Webhook>(await s.fetch('/api/v1/webhooks', { method: 'POST', cookie: admin, json: { name: 'Guardia', url: esc.url, minPriority: 1, enabled: true } }));
      await expectApiError(
        await s.fetch('/api/v1/notifications/escalation', { method: 'PUT', cookie: admin, json: { maxPriority: 2, afterMin: 10, repeatMin: 5, userIds: ['usr_nope'], webhookIds: [] } }),
        422,
        'ESCALATION_TARGET_UNKNOWN',
      );
      const policy = { maxPriority: 2, afterMin: 10, repeatMin: 5, userIds: [], webhookIds: [w.body.id] };
      expect((await jsonOf(await s.fetch('/api/v1/notifications/escalation', { method: 'PUT', cookie: admin, json: policy }))).body).toEqual(policy);
      // The demo's silent gate has an unack offline alarm (priority 2) since the start.
      const offline = s.modules.alarms.engine.open().find((a) => a.deviceId === GATE_2 && a.kind === 'device_offline')!;
      expect(offline.state).toBe('unack');
      const service = s.modules.notifications.service;
      const at = (min: number) => offline.raisedAtMs + min * 60_000;
      expect(await service.escalate([offline], at(9))).toBe(0);
      expect(await service.escalate([offline], at(11))).toBe(1);
      expect(await service.escalate([offline], at(12))).toBe(0); // same round
      expect(await service.escalate([offline], at(16))).toBe(1); // the first repeat
      await waitFor(() => esc.received.length === 2, 5000);
      const titles = esc.received.map((r) => (JSON.parse(r.raw.toString()) as Body).title);
      expect(titles).toEqual(['Sin reconocer: Alta · Equipo sin señal', 'Sin reconocer: Alta · Equipo sin señal']);
      // Deleting the webhook takes it out of the policy, which stays valid.
      expect((await s.fetch(`/api/v1/webhooks/${w.body.id}`, { method: 'DELETE', cookie: admin })).status).toBe(204);
      expect((await jsonOf<{ webhookIds: string[] }>(await s.fetch('/api/v1/notifications/escalation', { cookie: admin }))).body.webhookIds).toEqual([]);
    } finally {
      await esc.close();
    }
  });

  it('a receiver that never answers does not hold up ingest or alarms; after a restart the outbox resumes, nothing sent twice', async () => {
    const slow = await startReceiver();
    slow.answers.push('hang', 'hang', 'hang');
    try {
      const w = await jsonOf<Webhook>(await s.fetch('/api/v1/webhooks', { method: 'POST', cookie: admin, json: { name: 'Lento', url: slow.url, minPriority: 4 } }));
      await level(4.6);
      await waitFor(() => slow.received.length >= 1, 5000);
      // While it hangs, readings go on being accepted at once and the fast webhook still gets its alarms.
      const t0 = Date.now();
      for (let i = 0; i < 20; i++) await level(i % 2 ? 4.6 : 4.5);
      expect(Date.now() - t0).toBeLessThan(2000);
      const clearedBefore = hookBodies().filter((b) => b.event === 'cleared').length;
      await level(2);
      await waitFor(() => hookBodies().filter((b) => b.event === 'cleared').length > clearedBefore, 5000);

      // Restart while the slow webhook's notifications are unsent.
      await s.close();
      slow.answers.length = 0;
      s = await startServer(env(), { dataDir });
      admin = await s.login('admin');
      const slowOnes = async () => (await deliveries()).filter((d) => d.recipient.id === w.body.id);
      await waitFor(async () => (await slowOnes()).every((d) => d.state === 'sent'), 20_000, 200);
      const sent = await slowOnes();
      expect(sent.length).toBeGreaterThanOrEqual(2);
      // Every delivery reached the receiver; a repeat after the restart carries the same id.
      const ids = new Set(slow.received.map((r) => (JSON.parse(r.raw.toString()) as Body).id));
      expect(ids).toEqual(new Set(sent.map((d) => d.id)));
    } finally {
      await slow.close();
    }
  }, 40_000);
});
