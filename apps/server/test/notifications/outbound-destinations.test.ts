// docs/security.md "Outbound requests": where the server may be made to send. Push endpoints are
// public push services: loopback, private, link-local, multicast and unspecified addresses are
// refused in every notation when a browser subscribes, and again at every attempt — a name is
// judged by what it resolves to when the connection is made (here `localhost`, from the hosts
// file: no internet needed). Webhooks may be on the plant network, never link-local or a cloud's
// metadata address. The delivery log says why in words, never a socket error or an address.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Delivery, Webhook } from '@agua/shared';
import { expectApiError, jsonOf } from '../helpers/api';
import { waitFor } from '../helpers/protocol';
import { pushKeys, startReceiver, type HttpReceiver } from '../helpers/receivers';
import { startServer, tempDataDir, type TestServer } from '../helpers/server';
import { sqlRun } from '../helpers/sql';

const REFUSED_PUSH_ENDPOINTS = [
  'https://127.0.0.1:5432/',
  'https://169.254.169.254/',
  'https://[::1]/',
  'https://2130706433:8196/', // 127.0.0.1 as one decimal number
  'https://0x7f.1/', // hex, two parts
  'https://0177.0.0.1/', // octal
  'https://127.1/',
  'https://[::ffff:127.0.0.1]/', // IPv4-mapped IPv6
  'https://[::ffff:a9fe:a9fe]/', // 169.254.169.254, mapped, in hex
  'https://[::127.0.0.1]/', // IPv4-compatible (deprecated)
  'https://[64:ff9b::7f00:1]/', // NAT64 of 127.0.0.1
  'https://[2002:7f00:1::]/', // 6to4 of 127.0.0.1
  'https://10.1.2.3/',
  'https://172.16.0.1/',
  'https://192.168.1.10/',
  'https://100.64.0.1/', // carrier-grade NAT
  'https://[fd00:ec2::254]/', // unique local (a cloud's IPv6 metadata address)
  'https://[fe80::1]/',
  'https://224.0.0.1/',
  'https://255.255.255.255/',
  'https://0.0.0.0/',
  'https://0/',
  'https://[::]/',
  'https://localhost:9/', // a name: judged by what it resolves to (127.0.0.1)
];

const REFUSED_WEBHOOK_URLS = [
  'http://169.254.169.254/latest/meta-data/',
  'http://0xa9fea9fe/', // 169.254.169.254 as one hex number
  'http://[::ffff:169.254.169.254]/',
  'http://[fe80::1]:8080/',
  'http://[fd00:ec2::254]/',
  'http://100.100.100.200/', // a cloud's metadata address outside link-local
  'http://224.0.0.1/',
  'http://0.0.0.0:8080/',
  'http://[64:ff9b::a9fe:a9fe]/',
];

describe('outbound requests: destinations', () => {
  const dataDir = tempDataDir();
  let s: TestServer;
  let receiver: HttpReceiver;
  let admin: string;
  let operator: string;
  const keys = pushKeys();
  const env = { PUBLIC_URL: 'http://agua.test/', PUSH_ALLOW_HTTP: 'true' };
  const subscribe = (cookie: string, endpoint: string) => s.fetch('/api/v1/notifications/me/push-subscriptions', { method: 'POST', cookie, json: { endpoint, keys: keys.keys } });
  const deliveries = async () => (await jsonOf<{ items: Delivery[] }>(await s.fetch('/api/v1/notifications?limit=200', { cookie: admin }))).body.items;

  beforeAll(async () => {
    receiver = await startReceiver();
    // Subscriptions made while local endpoints were allowed (PUSH_ALLOW_PRIVATE, tests only) stay
    // in the database: after a restart without it, they are what a server holds from an older
    // version, or a name that now resolves somewhere else.
    s = await startServer({ ...env, PUSH_ALLOW_PRIVATE: 'true' }, { dataDir });
    operator = await s.login('operator');
    const port = new URL(receiver.url).port;
    for (const endpoint of [`http://localhost:${port}/by-name`, `http://127.0.0.1:${port}/literal`, `http://[::ffff:127.0.0.1]:${port}/mapped`]) {
      expect((await subscribe(operator, endpoint)).status).toBe(201);
    }
    await s.close();
    s = await startServer(env, { dataDir });
    [admin, operator] = await Promise.all([s.login('admin'), s.login('operator')]);
  });
  afterAll(async () => {
    await s?.close();
    await receiver?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(REFUSED_PUSH_ENDPOINTS)('a push endpoint at %s is refused when subscribing (422)', async (endpoint) => {
    await expectApiError(await subscribe(operator, endpoint), 422, 'PUSH_ENDPOINT_NOT_ALLOWED', 'La suscripción push debe apuntar a un servicio push público.');
  });

  it('a push endpoint at a public address is accepted (nothing is sent to it until there is something to send)', async () => {
    const endpoint = 'https://93.184.215.14/push/x';
    expect((await subscribe(operator, endpoint)).status).toBe(201);
    expect((await s.fetch('/api/v1/notifications/me/push-subscriptions', { method: 'DELETE', cookie: operator, json: { endpoint } })).status).toBe(204);
  });

  it('at every attempt: a name resolving to loopback, a loopback literal and its mapped form are refused before connecting, and given up', async () => {
    expect((await jsonOf(await s.fetch('/api/v1/notifications/me/test-push', { method: 'POST', cookie: operator }))).body).toEqual({ queued: 3 });
    const rows = (await waitFor(async () => {
      const pushes = (await deliveries()).filter((d) => d.channel === 'push' && d.event === 'test');
      return pushes.length === 3 && pushes.every((d) => d.state === 'failed') ? pushes : null;
    }, 5000))!;
    expect(rows.map((d) => d.lastError)).toEqual(['destino no permitido', 'destino no permitido', 'destino no permitido']);
    expect(rows.every((d) => d.attempts === 1)).toBe(true);
    expect(receiver.received).toHaveLength(0);
  });

  it.each(REFUSED_WEBHOOK_URLS)('a webhook at %s is refused when created or edited (422)', async (url) => {
    await expectApiError(await s.fetch('/api/v1/webhooks', { method: 'POST', cookie: admin, json: { name: 'Metadatos', url } }), 422, 'WEBHOOK_URL_NOT_ALLOWED');
  });

  it('a webhook on the plant network (loopback here) is fine; editing it to a link-local address is refused', async () => {
    const created = await jsonOf<Webhook>(await s.fetch('/api/v1/webhooks', { method: 'POST', cookie: admin, json: { name: 'Planta', url: `${receiver.url}/planta`, minPriority: 1 } }));
    expect(created.status).toBe(201);
    await expectApiError(await s.fetch(`/api/v1/webhooks/${created.body.id}`, { method: 'PATCH', cookie: admin, json: { url: 'http://169.254.169.254/' } }), 422, 'WEBHOOK_URL_NOT_ALLOWED');
    expect((await s.fetch(`/api/v1/webhooks/${created.body.id}/test`, { method: 'POST', cookie: admin })).status).toBe(202);
    await waitFor(() => receiver.received.some((r) => r.path === '/planta'), 5000);
  });

  it('a webhook stored with a link-local address (from before this rule) is refused at the attempt, and given up', async () => {
    const created = await jsonOf<Webhook>(await s.fetch('/api/v1/webhooks', { method: 'POST', cookie: admin, json: { name: 'Antiguo', url: `${receiver.url}/antiguo`, minPriority: 1 } }));
    await sqlRun(s, 'UPDATE webhooks SET url = ? WHERE id = ?', 'http://169.254.169.254:1/latest/meta-data/', created.body.id);
    await s.modules.notifications.directory.reload();
    expect((await s.fetch(`/api/v1/webhooks/${created.body.id}/test`, { method: 'POST', cookie: admin })).status).toBe(202);
    const row = (await waitFor(async () => (await deliveries()).find((d) => d.recipient.id === created.body.id && d.state === 'failed'), 5000))!;
    expect(row.lastError).toBe('destino no permitido');
    expect(row.attempts).toBe(1);
  });

  it("the log's lastError names the failure in words: no socket error, address or port", async () => {
    const closed = await startReceiver();
    const url = `${closed.url}/cerrado`;
    await closed.close();
    const created = await jsonOf<Webhook>(await s.fetch('/api/v1/webhooks', { method: 'POST', cookie: admin, json: { name: 'Cerrado', url, minPriority: 1 } }));
    expect((await s.fetch(`/api/v1/webhooks/${created.body.id}/test`, { method: 'POST', cookie: admin })).status).toBe(202);
    const refused = (await waitFor(async () => (await deliveries()).find((d) => d.recipient.id === created.body.id && d.lastError !== null), 5000))!;
    expect(refused.lastError).toBe('conexión rechazada');

    receiver.answers.push(503);
    const planta = (await jsonOf<Webhook[]>(await s.fetch('/api/v1/webhooks', { cookie: admin }))).body.find((w) => w.name === 'Planta')!;
    expect((await s.fetch(`/api/v1/webhooks/${planta.id}/test`, { method: 'POST', cookie: admin })).status).toBe(202);
    const answered = (await waitFor(async () => (await deliveries()).find((d) => d.recipient.id === planta.id && d.lastError !== null), 5000))!;
    expect(answered.lastError).toBe('el receptor respondió HTTP 503');
  });
});
