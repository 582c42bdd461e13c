// docs/external-broker.md "External broker" with several instances: both share the utility's Mosquitto through
// one shared subscription, split the load, and every reading is stored exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, storedReadings, type Instance, type TestCluster } from '../helpers/cluster';
import { startMosquitto, type TestMosquitto } from '../helpers/mosquitto';
import { LEVEL_1, connectDevice, levelMsg, publishQos1, waitFor } from '../helpers/protocol';

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

describe('two instances on one external broker', () => {
  it('split a device load between them and store every reading exactly once; both show the newest as current', async () => {
    const [A, B] = c.instances as [Instance, Instance];
    const device = await connectDevice({ mqttUrl: broker.url }, LEVEL_1);
    const count = 300;
    const base = Date.now() - 60_000;
    await Promise.all(Array.from({ length: count }, (_, seq) => publishQos1(device, `agua/v1/${LEVEL_1}/telemetry`, levelMsg(LEVEL_1, seq / 1000, { seq, boot: 'ext', ts: base + seq }))));
    // A resend of the first hundred (a device that lost its PUBACKs): duplicates, whichever instance gets them.
    for (let seq = 0; seq < 100; seq++) device.publish(`agua/v1/${LEVEL_1}/telemetry`, JSON.stringify(levelMsg(LEVEL_1, seq / 1000, { seq, boot: 'ext', ts: base + seq })), { qos: 1 });
    const result = await waitFor(async () => {
      const s = await storedReadings(c.databaseUrl, LEVEL_1);
      return s.distinct === count ? s : null;
    }, 20_000, 200);
    expect(result!.total).toBe(count);
    const acceptedBy = async (i: Instance) => (await c.metric(i, 'agua_readings_total', ['transport="mqtt"', 'result="accepted"'])) ?? 0;
    // Counted after each batch's commit and its hooks: on a busy machine the count can trail the rows for a moment.
    const [byA, byB] = (await waitFor(async () => {
      const counts = [await acceptedBy(A), await acceptedBy(B)] as const;
      return counts[0] + counts[1] >= count ? counts : null;
    }, 10_000, 200))!;
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

  it("one spill split between the instances is stored once, by the leader, from the stored readings", async () => {
    const [A, B] = c.instances as [Instance, Instance];
    const device = await connectDevice({ mqttUrl: broker.url }, LEVEL_1);
    // The demo wet well's crest is 9 m, its on-delay 30 s: two minutes at 9.5 m, a reading every 2 s.
    const base = Date.now() - 10 * 60_000;
    await Promise.all(Array.from({ length: 60 }, (_, i) => publishQos1(device, `agua/v1/${LEVEL_1}/telemetry`, levelMsg(LEVEL_1, 9.5, { seq: 1000 + i, boot: 'ext', ts: base + i * 2000 }))));
    device.end(true);
    for (const instance of [A, B]) {
      const cookie = await c.login(instance, 'viewer');
      const events = await waitFor(async () => {
        const page = (await (await fetch(`${instance.url}/api/v1/overflow-events?deviceId=${LEVEL_1}`, { headers: { cookie } })).json()) as { items: Array<{ startedAt: string; peakLevelM: number }> };
        return page.items.length > 0 ? page.items : null;
      }, 20_000, 250);
      expect(events).toEqual([expect.objectContaining({ startedAt: new Date(base).toISOString(), peakLevelM: 9.5 })]);
    }
  }, 60_000);
});
