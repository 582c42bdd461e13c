// deploy/haproxy-cluster.cfg, run as it is (Debian's HAProxy, addresses of the test's own) in
// front of three instances on one PostgreSQL and one Redis: devices and browsers reach the
// system through it, and keep doing so when an instance is killed under them.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killGroup } from '../helpers/child-server';
import { startCluster, storedReadings, type TestCluster } from '../helpers/cluster';
import { freePort, waitForPort } from '../helpers/net';
import { GATE_1, LEVEL_1, connectDevice, levelMsg, postTelemetry, sleep, waitFor } from '../helpers/protocol';

const CONFIG = fileURLToPath(new URL('../../../../deploy/haproxy-cluster.cfg', import.meta.url));

let c: TestCluster;
let haproxy: ChildProcess;
let lb: string;
let lbMqtt: string;
let out = '';

beforeAll(async () => {
  c = await startCluster(['lb-a', 'lb-b', 'lb-c'], { TRUST_PROXY: '127.0.0.1' });
  const [httpPort, mqttPort] = [await freePort(), await freePort()];
  const env: Record<string, string> = { AGUA_LB_HTTP_BIND: `127.0.0.1:${httpPort}`, AGUA_LB_MQTT_BIND: `127.0.0.1:${mqttPort}` };
  c.instances.forEach((instance, i) => {
    env[`AGUA_HTTP_SERVER_${i + 1}`] = instance.url.replace('http://', '');
    env[`AGUA_MQTT_SERVER_${i + 1}`] = instance.mqttUrl.replace('mqtt://', '');
  });
  haproxy = spawn('/usr/sbin/haproxy', ['-db', '-f', CONFIG], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  haproxy.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  haproxy.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const ready = { exited: () => haproxy.exitCode !== null, output: () => out };
  await waitForPort(httpPort, 'haproxy', ready);
  await waitForPort(mqttPort, 'haproxy', ready);
  lb = `http://127.0.0.1:${httpPort}`;
  lbMqtt = `mqtt://127.0.0.1:${mqttPort}`;
}, 120_000);
afterAll(async () => {
  if (haproxy && haproxy.exitCode === null) {
    const gone = new Promise((r) => haproxy.once('exit', r));
    haproxy.kill('SIGTERM');
    await gone;
  }
  await c?.destroy();
}, 60_000);

/** Posts a reading through the balancer, as firmware does: sent again until it is acknowledged. */
async function postUntilAcked(body: unknown): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await postTelemetry({ url: lb }, body, { signal: AbortSignal.timeout(5000) });
      await res.arrayBuffer();
      if (res.status === 202) return attempt;
    } catch {
      // the balancer or the instance went away mid-request: send again
    }
    if (attempt > 50) throw new Error('never acknowledged');
    await sleep(100);
  }
}

describe('three instances behind deploy/haproxy-cluster.cfg', () => {
  it('a device that only posts stays with one instance; when that one is killed its readings go on through another, each stored once, and browsers and the gate reconnect', async () => {
    const cookie = await c.login({ url: lb });
    let live = await c.live({ url: lb }, cookie);
    const base = Date.now() - 120_000;
    const message = (seq: number) => levelMsg(LEVEL_1, seq / 1000, { seq, boot: 'lb', ts: base + seq });
    for (let seq = 0; seq < 30; seq++) expect(await postUntilAcked(message(seq))).toBe(1);
    // Hashed by its key: one instance heard it every time, and owns it.
    const owned = await Promise.all(c.instances.map((i) => c.metric(i, 'agua_devices_owned')));
    expect(owned.filter((n) => n === 1)).toHaveLength(1);
    const owner = c.instances[owned.indexOf(1)]!;
    await live.next((f) => f.type === 'reading.created' && f.data.deviceId === LEVEL_1, 3000);

    const gate = await connectDevice({ mqttUrl: lbMqtt }, GATE_1);
    await live.next((f) => f.type === 'device.updated' && f.data.id === GATE_1 && f.data.status === 'online', 3000);

    killGroup(owner.child, 'SIGKILL');
    let resent = 0;
    for (let seq = 30; seq < 60; seq++) resent += (await postUntilAcked(message(seq))) - 1;
    // The gate's connection went with its instance if that was the one killed: it reconnects through the balancer.
    const gateAgain = gate.connected ? gate : await connectDevice({ mqttUrl: lbMqtt }, GATE_1);
    if (live.closeCode !== null) live = await c.live({ url: lb }, cookie);
    const mark = live.frames.length;
    expect(await postUntilAcked(message(60))).toBe(1);
    await live.next((f) => f.type === 'reading.created' && f.data.deviceId === LEVEL_1 && f.data.reading.value === 0.06, 5000, mark);

    const { total, distinct } = await storedReadings(c.databaseUrl, LEVEL_1, base);
    expect({ total, distinct }).toEqual({ total: 61, distinct: 61 });
    expect(resent).toBeLessThan(30);
    const cookieAgain = await c.login({ url: lb });
    const devices = (await (await fetch(`${lb}/api/v1/devices`, { headers: { cookie: cookieAgain } })).json()) as Array<{ id: string; status: string }>;
    await waitFor(async () => {
      const list = (await (await fetch(`${lb}/api/v1/devices`, { headers: { cookie: cookieAgain } })).json()) as Array<{ id: string; status: string }>;
      return list.find((d) => d.id === GATE_1)?.status === 'online' ? true : null;
    }, 5000);
    expect(devices.find((d) => d.id === LEVEL_1)?.status).toBe('online');
    gateAgain.end(true);
    live.close();
  }, 90_000);
});
