// docs/operations.md "Proof on one machine": three instances on one PostgreSQL database and one Redis
// behave as one system to browsers and devices.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Instance, type TestCluster } from '../helpers/cluster';
import { GATE_1, LEVEL_1, LEVEL_2, connectDevice, levelMsg, postTelemetry, publishQos1, sleep, waitFor } from '../helpers/protocol';

let c: TestCluster;
let A: Instance;
let B: Instance;
let C: Instance;

beforeAll(async () => {
  c = await startCluster(['inst-a', 'inst-b', 'inst-c']);
  [A, B, C] = c.instances as [Instance, Instance, Instance];
}, 120_000);
afterAll(async () => c?.destroy(), 60_000);

describe('three instances on one database and one Redis', () => {
  it('elects exactly one leader', async () => {
    const leaders = await waitFor(async () => {
      const states = await Promise.all(c.instances.map((i) => c.isLeader(i)));
      return states.filter((s) => s === true).length === 1 ? states : null;
    }, 15_000, 200);
    expect(leaders!.filter(Boolean)).toHaveLength(1);
  });

  it('a reading posted to A reaches a live socket on C, and every instance lists it as the current reading', async () => {
    const live = await c.live(C, await c.login(C));
    const res = await postTelemetry(A, levelMsg(LEVEL_1, 4.321));
    expect(res.status).toBe(202);
    const frame = await live.next((f) => f.type === 'reading.created' && f.data.deviceId === LEVEL_1 && f.data.reading.value === 4.321, 3000);
    expect(frame.data.reading.unit).toBe('m');
    for (const instance of [A, B, C]) {
      const cookie = await c.login(instance, 'viewer');
      const device = await waitFor(async () => {
        const list = (await (await fetch(`${instance.url}/api/v1/devices`, { headers: { cookie } })).json()) as Array<{ id: string; status: string; reading: { value: number } | null }>;
        const d = list.find((x) => x.id === LEVEL_1);
        return d?.reading?.value === 4.321 ? d : null;
      }, 3000);
      expect(device!.status).toBe('online');
    }
    live.close();
  });

  it('a command issued on B reaches an MQTT device on A, and its acknowledgement reaches the sockets of every instance', async () => {
    const sockets = await Promise.all([A, B, C].map(async (i) => c.live(i, await c.login(i))));
    const device = await connectDevice(A, GATE_1);
    await new Promise<void>((resolve, reject) => device.subscribe(`agua/v1/${GATE_1}/commands`, { qos: 1 }, (err) => (err ? reject(err) : resolve())));
    device.on('message', (_topic, payload) => {
      const command = JSON.parse(payload.toString()) as { id: string; command: string };
      device.publish(`agua/v1/${GATE_1}/commands/ack`, JSON.stringify({ id: command.id, success: true, state: 'abriendo' }), { qos: 1 });
    });
    // Online everywhere before the command (B refuses commands for offline devices).
    await sockets[1]!.next((f) => f.type === 'device.updated' && f.data.id === GATE_1 && f.data.status === 'online', 3000);

    const cookie = await c.login(B);
    const res = await fetch(`${B.url}/api/v1/devices/${GATE_1}/commands`, { method: 'POST', headers: { 'content-type': 'application/json', cookie, origin: B.url }, body: JSON.stringify({ command: 'abrir' }) });
    expect(res.status).toBe(202);
    const { commandId } = (await res.json()) as { commandId: string };
    for (const live of sockets) {
      await live.next((f) => f.type === 'command.updated' && f.data.id === commandId && f.data.status === 'succeeded', 5000);
      await live.next((f) => f.type === 'device.updated' && f.data.id === GATE_1 && f.data.config.state === 'abriendo', 5000);
    }
    // Stored once, by the instance that ran it, and readable on any.
    const stored = (await (await fetch(`${C.url}/api/v1/commands/${commandId}`, { headers: { cookie: await c.login(C) } })).json()) as { status: string };
    expect(stored.status).toBe('succeeded');
    // A second command on C while none is in flight goes the same way; one in flight is refused as on one instance.
    device.removeAllListeners('message');
    const first = await fetch(`${C.url}/api/v1/devices/${GATE_1}/commands`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: await c.login(C), origin: C.url }, body: JSON.stringify({ command: 'cerrar' }) });
    expect(first.status).toBe(202);
    const second = await fetch(`${B.url}/api/v1/devices/${GATE_1}/commands`, { method: 'POST', headers: { 'content-type': 'application/json', cookie, origin: B.url }, body: JSON.stringify({ command: 'cerrar' }) });
    expect(second.status).toBe(409);
    expect(((await second.json()) as { code: string }).code).toBe('COMMAND_IN_PROGRESS');
    // detener supersedes it, whichever instance it is issued on.
    const stop = await fetch(`${B.url}/api/v1/devices/${GATE_1}/commands`, { method: 'POST', headers: { 'content-type': 'application/json', cookie, origin: B.url }, body: JSON.stringify({ command: 'detener' }) });
    expect(stop.status).toBe(202);
    device.end(true);
    sockets.forEach((s) => s.close());
  });

  it('a device that moves from A to B is online once: its old session is closed and no socket sees it offline', async () => {
    const sockets = await Promise.all([A, B, C].map(async (i) => c.live(i, await c.login(i))));
    const onA = await connectDevice(A, GATE_1);
    await sleep(500);
    for (const live of sockets) await live.next((f) => f.type === 'device.updated' && f.data.id === GATE_1 && f.data.status === 'online', 3000).catch(() => undefined);
    const marks = sockets.map((s) => s.frames.length);
    let oldClosed = false;
    onA.on('close', () => (oldClosed = true));
    const onB = await connectDevice(B, GATE_1);
    await waitFor(() => oldClosed, 5000);
    // The move settles; the device keeps publishing on B.
    await publishQos1(onB, `agua/v1/${GATE_1}/telemetry`, { deviceId: GATE_1, type: 'motorized_gate', data: { value: 'abierta' } });
    await sleep(1500);
    sockets.forEach((live, i) => {
      const after = live.frames.slice(marks[i]).filter((f) => f.type === 'device.updated' && f.data.id === GATE_1);
      expect(after.map((f) => f.data.status)).not.toContain('offline');
    });
    const cookie = await c.login(C, 'viewer');
    const list = (await (await fetch(`${C.url}/api/v1/devices`, { headers: { cookie } })).json()) as Array<{ id: string; status: string; reading: { value: string } | null }>;
    expect(list.find((d) => d.id === GATE_1)).toMatchObject({ status: 'online', reading: { value: 'abierta' } });
    onB.end(true);
    // Its session ends for real now: offline, once, on every socket.
    for (const live of sockets) await live.next((f) => f.type === 'device.updated' && f.data.id === GATE_1 && f.data.status === 'offline', 5000);
    sockets.forEach((s) => s.close());
  });

  it('device administration on one instance holds on the others at once: a rotated key stops working everywhere', async () => {
    const admin = await c.login(A, 'admin');
    const created = await fetch(`${A.url}/api/v1/devices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: admin, origin: A.url },
      body: JSON.stringify({ id: 'esp32_cluster_01', name: 'Sensor Cluster', location: 'Prueba', type: 'level_sensor', waterType: 'clean', config: { maxLevel: 5 } }),
    });
    expect(created.status).toBe(201);
    const { apiKey } = (await created.json()) as { apiKey: string };
    const postWith = (instance: Instance, key: string) =>
      fetch(`${instance.url}/api/v1/telemetry`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify(levelMsg('esp32_cluster_01', 1.5)) });
    expect((await waitFor(async () => ((await postWith(C, apiKey)).status === 202 ? 202 : null), 3000)) as number).toBe(202);
    const rotated = await fetch(`${B.url}/api/v1/devices/esp32_cluster_01/key`, { method: 'POST', headers: { cookie: await c.login(B, 'admin'), origin: B.url } });
    expect(rotated.status).toBe(200);
    const { apiKey: newKey } = (await rotated.json()) as { apiKey: string };
    // The answer to the rotation means "in force everywhere": no waiting here.
    for (const instance of [A, B, C]) {
      expect((await postWith(instance, apiKey)).status).toBe(401);
      expect((await postWith(instance, newKey)).status).toBe(202);
    }
  });

  it('an alarm raised where its device is held is acknowledged from another instance; the holder moves it on from there', async () => {
    const sockets = await Promise.all([A, C].map(async (i) => c.live(i, await c.login(i))));
    // Well over the HH setpoint (90 % of 10 m), posted to A, which then holds LEVEL_1.
    expect((await postTelemetry(A, levelMsg(LEVEL_1, 9.7))).status).toBe(202);
    const raised = await sockets[1]!.next((f) => f.type === 'alarm.updated' && f.data.deviceId === LEVEL_1 && f.data.kind === 'level_high_high' && f.data.state === 'unack', 5000);
    const id = raised.data.id as string;
    const cookie = await c.login(C);
    const ack = await fetch(`${C.url}/api/v1/alarms/${id}/ack`, { method: 'POST', headers: { 'content-type': 'application/json', cookie, origin: C.url }, body: JSON.stringify({ comment: 'visto desde C' }) });
    expect(ack.status).toBe(200);
    expect(await ack.json()).toMatchObject({ id, state: 'ack', ackComment: 'visto desde C' });
    for (const live of sockets) await live.next((f) => f.type === 'alarm.updated' && f.data.id === id && f.data.state === 'ack', 3000);
    // A second acknowledgement, again from another instance, is refused by the holder as on one instance.
    const again = await fetch(`${B.url}/api/v1/alarms/${id}/ack`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: await c.login(B), origin: B.url }, body: '{}' });
    expect(again.status).toBe(409);
    // The holder knew of the acknowledgement: back to normal, the alarm clears (not rtn_unack).
    expect((await postTelemetry(A, levelMsg(LEVEL_1, 2))).status).toBe(202);
    for (const live of sockets) await live.next((f) => f.type === 'alarm.updated' && f.data.id === id && f.data.state === 'cleared', 3000);
    sockets.forEach((s) => s.close());
  });

  it('readings of one device sent to A and B in turn are each stored once, in order', async () => {
    const base = Date.now() - 60_000;
    for (let seq = 0; seq < 20; seq++) {
      const target = seq % 2 === 0 ? A : B;
      const res = await postTelemetry(target, levelMsg(LEVEL_2, 1 + seq / 100, { seq, boot: 'cluster', ts: base + seq * 100 }));
      expect(res.status).toBe(202);
    }
    // A resend of all of them to C: duplicates, wherever they first arrived.
    const resend = await postTelemetry(C, Array.from({ length: 20 }, (_, seq) => levelMsg(LEVEL_2, 1 + seq / 100, { seq, boot: 'cluster', ts: base + seq * 100 })));
    expect(await resend.json()).toMatchObject({ accepted: 0, duplicates: 20 });
    const cookie = await c.login(A, 'viewer');
    const from = encodeURIComponent(new Date(base - 1).toISOString());
    const page = (await (await fetch(`${A.url}/api/v1/devices/${LEVEL_2}/readings?from=${from}&limit=100`, { headers: { cookie } })).json()) as { items: Array<{ value: number }> };
    expect(page.items.map((r) => r.value)).toEqual(Array.from({ length: 20 }, (_, seq) => 1 + seq / 100));
  });
});
