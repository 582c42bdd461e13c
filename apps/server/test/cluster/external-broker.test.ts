// SCALE.md "External broker" with several instances: both share the utility's Mosquitto through
// one shared subscription, split the load, and every reading is stored exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import pg from 'pg';
import { startCluster, type Instance, type TestCluster } from '../helpers/cluster';
import { startMosquitto, type TestMosquitto } from '../helpers/mosquitto';
import { demoKey } from '../helpers/server';
import { LEVEL_1, levelMsg, waitFor } from '../helpers/protocol';

let broker: TestMosquitto;
let c: TestCluster;

beforeAll(async () => {
  broker = await startMosquitto();
  c = await startCluster(['ext-a', 'ext-b'], { MQTT_URL: broker.adminUrl });
}, 120_000);
afterAll(async () => {
  await c?.destroy();
  await broker?.stop();
}, 60_000);

async function acceptedBy(instance: Instance): Promise<number> {
  const text = await (await fetch(`${instance.url}/metrics`, { headers: { authorization: `Bearer ${c.metricsToken}` } })).text();
  const line = text.split('\n').find((l) => l.startsWith('agua_readings_total') && l.includes('transport="mqtt"') && l.includes('result="accepted"'));
  return line ? Number(line.trim().split(' ').at(-1)) : 0;
}

async function stored(deviceId: string): Promise<{ total: number; distinct: number }> {
  const client = new pg.Client({ connectionString: c.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ total: string; distinct: string }>('SELECT COUNT(*) AS total, COUNT(DISTINCT value_num) AS "distinct" FROM readings WHERE device_id = $1', [deviceId]);
    return { total: Number(rows[0]!.total), distinct: Number(rows[0]!.distinct) };
  } finally {
    await client.end();
  }
}

describe('two instances on one external broker', () => {
  it('split a device load between them and store every reading exactly once; both show the newest as current', async () => {
    const [A, B] = c.instances as [Instance, Instance];
    const device = await new Promise<mqtt.MqttClient>((resolve, reject) => {
      const client = mqtt.connect(broker.url, { protocolVersion: 4, clientId: LEVEL_1, username: LEVEL_1, password: demoKey(LEVEL_1), reconnectPeriod: 0 });
      client.once('connect', () => resolve(client));
      client.once('error', reject);
    });
    const count = 300;
    const base = Date.now() - 60_000;
    await Promise.all(
      Array.from(
        { length: count },
        (_, seq) =>
          new Promise<void>((resolve, reject) =>
            device.publish(`agua/v1/${LEVEL_1}/telemetry`, JSON.stringify(levelMsg(LEVEL_1, seq / 1000, { seq, boot: 'ext', ts: base + seq })), { qos: 1 }, (err) => (err ? reject(err) : resolve())),
          ),
      ),
    );
    // A resend of the first hundred (a device that lost its PUBACKs): duplicates, whichever instance gets them.
    for (let seq = 0; seq < 100; seq++) device.publish(`agua/v1/${LEVEL_1}/telemetry`, JSON.stringify(levelMsg(LEVEL_1, seq / 1000, { seq, boot: 'ext', ts: base + seq })), { qos: 1 });
    const result = await waitFor(async () => {
      const s = await stored(LEVEL_1);
      return s.distinct === count ? s : null;
    }, 20_000, 200);
    expect(result!.total).toBe(count);
    const [byA, byB] = [await acceptedBy(A), await acceptedBy(B)];
    expect(byA + byB).toBe(count);
    expect(byA).toBeGreaterThan(0);
    expect(byB).toBeGreaterThan(0);
    // The newest reading is current on both, whichever instance stored it.
    for (const instance of [A, B]) {
      const cookie = await c.login(instance, 'viewer');
      await waitFor(async () => {
        const list = (await (await fetch(`${instance.url}/api/v1/devices`, { headers: { cookie } })).json()) as Array<{ id: string; reading: { value: number } | null }>;
        return list.find((d) => d.id === LEVEL_1)?.reading?.value === (count - 1) / 1000 ? true : null;
      }, 5000);
    }
    device.end(true);
  }, 60_000);
});
