// docs/operations.md "Proof on one machine", the failures: an instance killed with SIGKILL under load, and
// Redis restarted under load.
import { afterEach, describe, expect, it } from 'vitest';
import { killGroup } from '../helpers/child-server';
import { startCluster, storedReadings, type Instance, type TestCluster } from '../helpers/cluster';
import { GATE_1, LEVEL_1, LEVEL_2, connectDevice, levelMsg, postTelemetry, sleep, waitFor } from '../helpers/protocol';

let c: TestCluster | undefined;
afterEach(async () => {
  await c?.destroy();
  c = undefined;
}, 60_000);

/** Posts one reading; the status, or 0 when the instance did not answer. */
async function post(instance: Instance, body: unknown): Promise<number> {
  try {
    const res = await postTelemetry(instance, body, { signal: AbortSignal.timeout(5000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

/**
 * A device that sends readings seq 0, 1, 2… (value = seq / 1000 m) to its instance and, like the
 * firmware, sends again what was not acknowledged — to the other instance once its own is gone.
 */
function loadOf(deviceId: string, targets: () => Instance[], acked: Set<number>, until: () => boolean): Promise<void> {
  const base = Date.now() - 120_000;
  return (async () => {
    let seq = 0;
    while (!until()) {
      const body = levelMsg(deviceId, seq / 1000, { seq, boot: 'kill', ts: base + seq });
      for (const target of targets()) {
        if ((await post(target, body)) === 202) {
          acked.add(seq);
          break;
        }
      }
      if (acked.has(seq)) seq++;
      else await sleep(20);
    }
  })();
}

describe('failures of several instances', () => {
  it('kill -9 of the leader under load: every acknowledged reading stored exactly once, its device reconnects elsewhere online, leadership and its devices\' timers move', async () => {
    c = await startCluster(['kill-a', 'kill-b', 'kill-c'], { DEVICE_OFFLINE_AFTER_S: '4' });
    const [A, B, C] = c.instances as [Instance, Instance, Instance];
    await waitFor(async () => ((await c!.isLeader(A)) ? true : null), 15_000, 200);
    const live = await c.live(C, await c.login(C));
    const gate = await connectDevice(A, GATE_1);
    await live.next((f) => f.type === 'device.updated' && f.data.id === GATE_1 && f.data.status === 'online', 3000);

    let aDead = false;
    let stop = false;
    const acked1 = new Set<number>();
    const acked2 = new Set<number>();
    const load = Promise.all([
      // LEVEL_1 goes to A while it lives, then to B; LEVEL_2 only ever to A, then falls silent.
      loadOf(LEVEL_1, () => (aDead ? [B] : [A, B]), acked1, () => stop),
      loadOf(LEVEL_2, () => [A], acked2, () => stop || aDead),
    ]);
    await waitFor(() => (acked1.size > 50 && acked2.size > 50 ? true : null), 15_000);
    killGroup(A.child, 'SIGKILL');
    aDead = true;
    const killedAt = Date.now();

    // The gate reconnects through the balancer — here: to C — and is online, once.
    await new Promise<void>((resolve) => (gate.connected ? gate.once('close', () => resolve()) : resolve()));
    const gateAgain = await connectDevice(C, GATE_1);
    await waitFor(async () => ((await c!.isLeader(B)) || (await c!.isLeader(C)) ? true : null), 30_000, 250);
    const tookOverS = (Date.now() - killedAt) / 1000;
    expect(tookOverS).toBeLessThan(30);
    await sleep(1000);
    stop = true;
    await load;

    // Every acknowledged reading is stored, exactly once.
    const values1 = (await storedReadings(c.databaseUrl, LEVEL_1)).values;
    const values2 = (await storedReadings(c.databaseUrl, LEVEL_2)).values;
    for (const [values, acked] of [[values1, acked1], [values2, acked2]] as const) {
      expect(new Set(values).size).toBe(values.length);
      const stored = new Set(values.map((v) => Math.round(v * 1000)));
      for (const seq of acked) expect(stored.has(seq)).toBe(true);
    }

    // LEVEL_2's instance is gone and it is silent: it goes offline once, reported by whoever runs its timers now.
    await live.next((f) => f.type === 'device.updated' && f.data.id === LEVEL_2 && f.data.status === 'offline', 25_000);
    await sleep(2000);
    const offline2 = live.frames.filter((f) => f.type === 'device.updated' && f.data.id === LEVEL_2 && f.data.status === 'offline');
    expect(offline2).toHaveLength(1);
    // The gate never showed offline on C: it reconnected long before its silence would count.
    const gateStates = live.frames.filter((f) => f.type === 'device.updated' && f.data.id === GATE_1).map((f) => f.data.status as string);
    expect(gateStates).not.toContain('offline');
    expect(gateStates.at(-1)).toBe('online');
    gateAgain.end(true);
    live.close();
  }, 120_000);

  it('a clean stop (SIGTERM) of the leader: another leads at once, and the devices it held are judged by their own timeout, not after its silence', async () => {
    c = await startCluster(['stop-a', 'stop-b'], { DEVICE_OFFLINE_AFTER_S: '3' });
    const [A, B] = c.instances as [Instance, Instance];
    await waitFor(async () => ((await c!.isLeader(A)) ? true : null), 15_000, 200);
    const live = await c.live(B, await c.login(B));
    for (let i = 0; i < 3; i++) expect(await post(A, levelMsg(LEVEL_2, 1 + i / 10))).toBe(202);
    await live.next((f) => f.type === 'device.updated' && f.data.id === LEVEL_2 && f.data.status === 'online', 5000);
    killGroup(A.child, 'SIGTERM');
    await A.child.exited;
    const stoppedAt = Date.now();
    await waitFor(async () => ((await c!.isLeader(B)) ? true : null), 10_000, 100);
    const leadsAfterMs = Date.now() - stoppedAt;
    await live.next((f) => f.type === 'device.updated' && f.data.id === LEVEL_2 && f.data.status === 'offline', 15_000);
    const offlineAfterMs = Date.now() - stoppedAt;
    // Without the stop being announced: up to 5 s to lead, and 10 s of silence before its devices' timers move.
    expect(leadsAfterMs).toBeLessThan(2_500);
    expect(offlineAfterMs).toBeLessThan(6_000);
    await sleep(1000);
    expect(live.frames.filter((f) => f.type === 'device.updated' && f.data.id === LEVEL_2 && f.data.status === 'offline')).toHaveLength(1);
    live.close();
  }, 60_000);

  it('Redis away for longer than an instance\'s silence counts, under load: ingest never stops, no live device is taken for offline, sockets get a fresh snapshot, events flow again', async () => {
    c = await startCluster(['redis-a', 'redis-b'], { DEVICE_OFFLINE_AFTER_S: '3' });
    const [A, B] = c.instances as [Instance, Instance];
    await waitFor(async () => ((await c!.isLeader(A)) ? true : null), 15_000, 200);
    // A, the leader, watches; LEVEL_2 talks only to B, LEVEL_1 to both in turn.
    const live = await c.live(A, await c.login(A));
    const statuses: number[] = [];
    let stop = false;
    const load = (async () => {
      for (let i = 0; !stop; i++) {
        statuses.push(await post(i % 2 === 0 ? A : B, levelMsg(LEVEL_1, 2 + (i % 100) / 1000)));
        if (i % 10 === 0) statuses.push(await post(B, levelMsg(LEVEL_2, 1 + (i % 100) / 1000)));
        await sleep(20);
      }
    })();
    await live.next((f) => f.type === 'device.updated' && f.data.id === LEVEL_2 && f.data.status === 'online', 5000);
    await c.redis.stop();
    // Longer than both the offline timeout and the 10 s after which a silent instance counts as gone.
    await sleep(13_000);
    const whileAway = statuses.length;
    await c.redis.start();
    const mark = live.frames.length;
    await live.next((f) => f.type === 'hello', 15_000, mark);
    await sleep(500);
    stop = true;
    await load;
    expect(statuses.length).toBeGreaterThan(whileAway);
    expect(statuses.filter((s) => s !== 202)).toEqual([]);
    const offline = live.frames.filter((f) => f.type === 'device.updated' && [LEVEL_1, LEVEL_2].includes(f.data.id) && f.data.status === 'offline');
    expect(offline).toEqual([]);
    const hello = live.frames.slice(mark).find((f) => f.type === 'hello')!;
    expect(hello.data.devices.find((d: { id: string }) => d.id === LEVEL_2).status).toBe('online');

    // Back in touch: a reading posted to B reaches A's socket.
    expect(await post(B, levelMsg(LEVEL_2, 4.567))).toBe(202);
    await live.next((f) => f.type === 'reading.created' && f.data.reading.value === 4.567, 5000);
    live.close();
  }, 90_000);
});
