// docs/control.md "Schedules", exactly once with several instances: two instances on one
// PostgreSQL database and one Redis; a gate's schedule due now runs once — one run, one command.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type TestCluster } from '../helpers/cluster';
import { gateMsg, postTelemetry, sleep, waitFor } from '../helpers/protocol';

const GATE = 'esp32_compuerta_01';

describe('a gate schedule with two instances', () => {
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
});
