// docs/control.md with several instances: two instances on one PostgreSQL database and one
// Redis. A gate's schedule due now runs once — one run, one command; a two-person command issued
// on one instance is approved on the other; a password asked again is judged wherever it arrives.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type TestCluster } from '../helpers/cluster';
import { gateMsg, postTelemetry, sleep, waitFor } from '../helpers/protocol';

const GATE = 'esp32_compuerta_01';

describe('safe control with two instances', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startCluster(['a', 'b'], { TZ: 'UTC', DEVICE_OFFLINE_AFTER_S: '120' });
  });
  afterAll(async () => {
    await cluster?.destroy();
  });

  it('runs once: one run stored, one command issued by the schedule', { timeout: 120_000 }, async () => {
    const [a, b] = cluster.instances as [TestCluster['instances'][0], TestCluster['instances'][0]];
    const admin = await cluster.login(a, 'admin');
    // The gate is heard (through instance b): online for both.
    const heard = await postTelemetry(b, gateMsg(GATE, 'cerrada'));
    expect(heard.status).toBe(202);
    const due = new Date(Date.now() - 20_000);
    due.setUTCSeconds(0, 0);
    const res = await fetch(`${a.url}/api/v1/schedules`, {
      method: 'POST',
      headers: { cookie: admin, origin: a.url, 'content-type': 'application/json' },
      body: JSON.stringify({ deviceId: GATE, action: 'abrir', time: due.toISOString().slice(11, 16), days: [1, 2, 3, 4, 5, 6, 7] }),
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    // Owed from before its time, as if it had been made a minute earlier: due on both instances' next ticks.
    const db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    try {
      await db.query('UPDATE schedules SET active_since_ms = $1 WHERE id = $2', [due.getTime() - 60_000, id]);
      const runs = async () => (await db.query('SELECT status, command_id FROM schedule_runs WHERE schedule_id = $1', [id])).rows as Array<{ status: string; command_id: string }>;
      await waitFor(async () => ((await runs()).length > 0 ? true : null), 10_000, 100);
      // Both instances' ticks have had several turns since.
      await sleep(4_000);
      const stored = await runs();
      expect(stored).toHaveLength(1);
      expect(stored[0]!.status).toBe('issued');
      const commands = (await db.query('SELECT id FROM commands WHERE schedule_id = $1', [id])).rows;
      expect(commands.map((c: { id: string }) => c.id)).toEqual([stored[0]!.command_id]);
    } finally {
      await db.end();
    }
  });

  it('a two-person command issued on one instance is approved on the other; a re-authentication on either', { timeout: 60_000 }, async () => {
    const [a, b] = cluster.instances as [TestCluster['instances'][0], TestCluster['instances'][0]];
    const GATE_2 = 'esp32_compuerta_02';
    const [adminA, operatorA, operatorB] = [await cluster.login(a, 'admin'), await cluster.login(a, 'operator'), await cluster.login(b, 'operator')];
    expect((await postTelemetry(a, gateMsg(GATE_2, 'cerrada'))).status).toBe(202);
    const post = (at: { url: string }, cookie: string, path: string, body: unknown) =>
      fetch(`${at.url}${path}`, { method: 'POST', headers: { cookie, origin: at.url, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const lock = async (mode: string) =>
      expect(
        (await post(a, adminA, '/api/v1/interlocks', { deviceId: GATE_2, command: 'abrir', name: mode, mode, conditions: [{ kind: 'gate_state', deviceId: GATE_2, in: ['abierta'] }] })).status,
      ).toBe(201);
    await lock('two_person');
    const issued = await post(b, operatorB, `/api/v1/devices/${GATE_2}/commands`, { command: 'abrir' });
    const body = (await issued.json()) as { commandId: string; status: string };
    expect({ status: issued.status, waiting: body.status }).toEqual({ status: 202, waiting: 'awaiting_approval' });
    const approved = await post(a, adminA, `/api/v1/commands/${body.commandId}/approve`, {});
    expect(approved.status).toBe(200);
    expect(['pending', 'delivered']).toContain(((await approved.json()) as { status: string }).status);
    expect((await post(b, operatorB, `/api/v1/commands/${body.commandId}/approve`, {})).status).toBe(403);

    // A reauth interlock on top: a stop first (nothing in flight), then the password on either instance.
    const stop = (await (await post(a, operatorA, `/api/v1/devices/${GATE_2}/commands`, { command: 'detener' })).json()) as { commandId: string };
    const key = { 'x-api-key': `demo-key-${GATE_2}` };
    await waitFor(async () => {
      for (const at of [a, b]) {
        const taken = (await (await fetch(`${at.url}/api/v1/devices/${GATE_2}/commands?wait=0`, { headers: key })).json()) as Array<{ id: string }>;
        for (const c of taken) await fetch(`${at.url}/api/v1/devices/${GATE_2}/commands/${c.id}/ack`, { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: JSON.stringify({ success: true, state: 'cerrada' }) });
      }
      const c = (await (await fetch(`${a.url}/api/v1/commands/${stop.commandId}`, { headers: { cookie: adminA } })).json()) as { status: string };
      return c.status === 'succeeded' ? true : null;
    }, 10_000, 200);
    const { body: list } = { body: (await (await fetch(`${a.url}/api/v1/interlocks?deviceId=${GATE_2}`, { headers: { cookie: adminA } })).json()) as Array<{ id: string }> };
    for (const i of list) await fetch(`${a.url}/api/v1/interlocks/${i.id}`, { method: 'DELETE', headers: { cookie: adminA, origin: a.url } });
    await lock('reauth');
    for (const [at, cookie] of [[a, operatorA], [b, operatorB]] as const) {
      const wrong = await post(at, cookie, `/api/v1/devices/${GATE_2}/commands`, { command: 'abrir', password: 'not-the-password' });
      expect(((await wrong.json()) as { code: string }).code).toBe('REAUTH_FAILED');
    }
    const right = await post(b, operatorB, `/api/v1/devices/${GATE_2}/commands`, { command: 'abrir', password: 'operator123' });
    expect(right.status).toBe(202);
  });
});
