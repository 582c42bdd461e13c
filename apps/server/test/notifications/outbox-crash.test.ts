// docs/alarms.md "Delivery that does not lose": the server is killed with SIGKILL while a webhook
// receiver holds its requests unanswered. After a restart every notification is delivered, each
// one is still exactly one outbox row (the restart's re-evaluation writes no second 'raised'),
// and a repeat of an interrupted attempt carries the same delivery id.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Delivery } from '@agua/shared';
import { groupGone, killAll, killGroup, signIn, spawnServer, type Child } from '../helpers/child-server';
import { LEVEL_2, levelMsg, waitFor } from '../helpers/protocol';
import { startReceiver, type HttpReceiver } from '../helpers/receivers';
import { demoKey } from '../helpers/server';

async function log(url: string, cookie: string): Promise<Delivery[]> {
  const res = await fetch(`${url}/api/v1/notifications?limit=200`, { headers: { cookie } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { items: Delivery[] }).items;
}

describe('the outbox across a SIGKILL', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-outbox-crash-'));
  const children: Child[] = [];
  let hook: HttpReceiver;
  afterAll(async () => {
    await killAll(children);
    await hook?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('notifications in flight at the kill are delivered after the restart, none lost, none written twice', async () => {
    hook = await startReceiver();
    hook.answers.push('hang', 'hang', 'hang', 'hang');
    const env = { PUBLIC_URL: 'http://agua.test/' };
    const first = await spawnServer(dataDir, env);
    children.push(first);
    const cookie = await signIn(first);
    const created = await fetch(`${first.url}/api/v1/webhooks`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: first.url },
      body: JSON.stringify({ name: 'Receptor', url: hook.url, minPriority: 4 }),
    });
    expect(created.status).toBe(201);
    const webhookId = ((await created.json()) as { id: string }).id;

    // HH (priority 1) and H (priority 3): two notifications, both held by the receiver.
    const sent = await fetch(`${first.url}/api/v1/telemetry`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': demoKey(LEVEL_2) },
      body: JSON.stringify(levelMsg(LEVEL_2, 4.6)),
    });
    expect(sent.status).toBe(202);
    await waitFor(() => hook.received.length >= 2, 10_000);
    const inFlight = new Set(hook.received.map((r) => (JSON.parse(r.raw.toString()) as { id: string }).id));
    const inFlightAlarms = new Set(hook.received.map((r) => (JSON.parse(r.raw.toString()) as { alarmId: string }).alarmId));
    expect(inFlight.size).toBe(2);
    expect(inFlightAlarms.size).toBe(2);
    killGroup(first, 'SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(await groupGone(first)).toBe(true);

    hook.answers.length = 0; // from now on it answers 200
    const second = await spawnServer(dataDir, env);
    children.push(second);
    const cookie2 = await signIn(second);
    // The HH and H alarms' notifications. A restart slower than the offline timeout (a busy
    // machine) also, rightly, raises the sensor's device_offline alarm: a different alarm.
    const mine = async () => (await log(second.url, cookie2)).filter((d) => d.recipient.id === webhookId && d.alarmId !== null && inFlightAlarms.has(d.alarmId));
    const delivered = (await waitFor(async () => {
      const rows = await mine();
      return rows.length >= 2 && rows.every((d) => d.state === 'sent') ? rows : null;
    }, 30_000, 200))!;

    // Exactly the two raised notifications: the restart's evaluation of the stored reading raised nothing new.
    expect(delivered.map((d) => d.event)).toEqual(['raised', 'raised']);
    expect(new Set(delivered.map((d) => d.id))).toEqual(inFlight);
    // Each was attempted again after the restart, under the same id.
    for (const d of delivered) expect(d.attempts).toBe(2);
    const ids = hook.received.map((r) => (JSON.parse(r.raw.toString()) as { id: string }).id);
    for (const id of inFlight) expect(ids.filter((x) => x === id)).toHaveLength(2);
  }, 120_000);
});
