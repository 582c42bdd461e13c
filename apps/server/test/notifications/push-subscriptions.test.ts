// docs/api.md "Notifications": a user's push subscriptions — at most 10 (one per browser; the
// 11th replaces the oldest), each endpoint with one owner (another user can neither take nor
// delete it), removed when its browser signs out — and test sends limited per user (429 with
// Retry-After). Real receivers over real HTTP.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MyNotifications, Webhook } from '@agua/shared';
import { expectApiError, jsonOf } from '../helpers/api';
import { waitFor } from '../helpers/protocol';
import { pushKeys, startMailbox, startReceiver, type HttpReceiver, type Mailbox } from '../helpers/receivers';
import { startServer, tempDataDir, type TestServer } from '../helpers/server';

describe('push subscriptions and test sends', () => {
  const dataDir = tempDataDir();
  let s: TestServer;
  let service: HttpReceiver;
  let mailbox: Mailbox;
  let admin: string;
  let operator: string;
  let viewer: string;
  const opKeys = pushKeys();
  const mine = async (cookie: string) => (await jsonOf<MyNotifications>(await s.fetch('/api/v1/notifications/me', { cookie }))).body;
  const subscribe = (cookie: string, endpoint: string, keys = opKeys.keys) => s.fetch('/api/v1/notifications/me/push-subscriptions', { method: 'POST', cookie, json: { endpoint, keys } });
  const unsubscribe = (cookie: string, endpoint: string) => s.fetch('/api/v1/notifications/me/push-subscriptions', { method: 'DELETE', cookie, json: { endpoint } });
  const testPush = (cookie: string) => s.fetch('/api/v1/notifications/me/test-push', { method: 'POST', cookie });
  /** The paths the push service received a request on, from `from` on. */
  const pushedPaths = (from: number) => service.received.slice(from).map((r) => r.path);

  beforeAll(async () => {
    [service, mailbox] = await Promise.all([startReceiver(), startMailbox()]);
    s = await startServer({ PUBLIC_URL: 'http://agua.test/', SMTP_URL: mailbox.url, PUSH_ALLOW_HTTP: 'true', PUSH_ALLOW_PRIVATE: 'true' }, { dataDir });
    [admin, operator, viewer] = await Promise.all([s.login('admin'), s.login('operator'), s.login('viewer')]);
  });
  afterAll(async () => {
    await s?.close();
    await Promise.all([service?.close(), mailbox?.close()]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('at most 10 browsers per user: the 11th and 12th replace the oldest, and only the 10 newest get pushes', async () => {
    for (let i = 1; i <= 12; i++) {
      const res = await subscribe(operator, `${service.url}/op/${i}`);
      expect(res.status).toBe(201);
      expect(((await res.json()) as MyNotifications).pushSubscriptions).toBe(Math.min(i, 10));
    }
    const before = service.received.length;
    expect((await jsonOf(await testPush(operator))).body).toEqual({ queued: 10 });
    await waitFor(() => service.received.length - before === 10, 5000);
    expect(pushedPaths(before).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `/op/${i + 3}`).sort());
    // The same endpoint again (new keys of the same browser) replaces it: still 10.
    expect((await subscribe(operator, `${service.url}/op/12`, pushKeys().keys)).status).toBe(201);
    expect((await mine(operator)).pushSubscriptions).toBe(10);
  });

  it("another user can neither take nor delete someone's endpoint", async () => {
    const endpoint = `${service.url}/op/12`;
    await expectApiError(await subscribe(viewer, endpoint), 409, 'PUSH_ENDPOINT_TAKEN', 'Esta suscripción push pertenece a otro usuario.');
    await expectApiError(await unsubscribe(viewer, endpoint), 404, 'PUSH_SUBSCRIPTION_NOT_FOUND');
    expect((await mine(viewer)).pushSubscriptions).toBe(0);
    expect((await mine(operator)).pushSubscriptions).toBe(10);
    // It is still the operator's: a test push of the operator reaches it.
    const before = service.received.length;
    expect((await testPush(operator)).status).toBe(202);
    await waitFor(() => pushedPaths(before).includes('/op/12'), 5000);
  });

  it('signing out: the browser deletes its subscription with its session, and nothing more is pushed to it', async () => {
    const endpoint = `${service.url}/op/12`;
    expect((await unsubscribe(operator, endpoint)).status).toBe(204);
    expect((await mine(operator)).pushSubscriptions).toBe(9);
    await expectApiError(await unsubscribe(operator, endpoint), 404, 'PUSH_SUBSCRIPTION_NOT_FOUND');
    expect((await s.fetch('/api/v1/auth/logout', { method: 'POST', cookie: operator })).status).toBe(204);
    operator = await s.login('operator');
    const before = service.received.length;
    expect((await jsonOf(await testPush(operator))).body).toEqual({ queued: 9 });
    await waitFor(() => service.received.length - before === 9, 5000);
    expect(pushedPaths(before)).not.toContain('/op/12');
    // Once the owner let it go, the endpoint may be someone else's (the browser now signed in as another user).
    expect((await subscribe(viewer, endpoint, pushKeys().keys)).status).toBe(201);
  });

  it('test sends are limited per user: a few a minute, then 429 with Retry-After and a Spanish message', async () => {
    // The viewer has used none yet: 5 go, the 6th waits.
    for (let i = 0; i < 5; i++) expect((await testPush(viewer)).status).toBe(202);
    const res = await testPush(viewer);
    await expectApiError(res.clone(), 429, 'TEST_SEND_RATE_LIMITED', 'Demasiados envíos de prueba. Espere un momento antes de volver a probar.');
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // One budget per user across test push, test e-mail and webhook tests; other users keep theirs.
    const hook = await jsonOf<Webhook>(await s.fetch('/api/v1/webhooks', { method: 'POST', cookie: admin, json: { name: 'Prueba', url: `${service.url}/hook`, minPriority: 1 } }));
    for (let i = 0; i < 4; i++) expect((await s.fetch(`/api/v1/webhooks/${hook.body.id}/test`, { method: 'POST', cookie: admin })).status).toBe(202);
    expect((await s.fetch('/api/v1/notifications/test-email', { method: 'POST', cookie: admin })).status).toBe(202);
    await expectApiError(await s.fetch('/api/v1/notifications/test-email', { method: 'POST', cookie: admin }), 429, 'TEST_SEND_RATE_LIMITED');
    await expectApiError(await s.fetch(`/api/v1/webhooks/${hook.body.id}/test`, { method: 'POST', cookie: admin }), 429, 'TEST_SEND_RATE_LIMITED');
    expect((await testPush(operator)).status).toBe(202);
  });
});
