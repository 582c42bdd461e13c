// docs/external-broker.md "External broker": messages wait in the broker's persistent sessions while the server
// is away; the server acknowledges to the broker only after storing, so a SIGKILL in the middle
// of a QoS 1 burst loses nothing, and redeliveries are caught by (deviceId, boot, seq). At start
// the server reconciles the broker's accounts with its devices.
import fs from 'node:fs';
import type { MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { topics } from '@agua/shared';
import { groupGone, killAll, killGroup, spawnServer, type Child } from '../helpers/child-server';
import { startMosquitto, type TestMosquitto } from '../helpers/mosquitto';
import { freePort } from '../helpers/net';
import { LEVEL_1, LEVEL_2, connectDevice, countReadings, endClient, levelMsg, publishQos1, sleep, waitFor } from '../helpers/protocol';
import { createDevice } from '../helpers/api';
import { demoKey, startServer, tempDataDir, type TestServer } from '../helpers/server';
import { storedRows } from '../helpers/stored';

/** Readings of a device in a stopped (or running) server's database: total, and distinct values (each message sends seq / 1000). */
async function storedSeqs(dataDir: string, deviceId: string): Promise<{ total: number; distinct: number }> {
  const [row] = await storedRows<{ total: number; distinct: number }>(
    dataDir,
    'SELECT COUNT(*) AS total, COUNT(DISTINCT value_num) AS "distinct" FROM readings WHERE device_id = ?',
    deviceId,
  );
  return { total: Number(row?.total ?? 0), distinct: Number(row?.distinct ?? 0) };
}

describe('external broker: nothing acknowledged is lost', () => {
  let broker: TestMosquitto;
  const clients: MqttClient[] = [];
  const children: Child[] = [];
  const dirs: string[] = [];

  // A broker of its own per test: the persistent sessions of one test's server would otherwise
  // stay in the shared subscription and hold their share of the next test's messages.
  beforeEach(async () => {
    broker = await startMosquitto();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => endClient(c, true)));
    await killAll(children.splice(0));
    await broker?.stop();
  });
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  function dataDir(): string {
    const dir = tempDataDir();
    dirs.push(dir);
    return dir;
  }

  it('readings published while the server is stopped are stored once it starts (demo devices get their accounts by themselves)', async () => {
    const dir = dataDir();
    // No INSTANCE_ID: the server's name, and so its broker sessions, are kept in its database.
    const env = { MQTT_URL: broker.adminUrl };
    let s: TestServer = await startServer(env, { dataDir: dir });
    await s.close();
    const device = await connectDevice(s, LEVEL_2, { password: demoKey(LEVEL_2) });
    clients.push(device);
    for (let seq = 0; seq < 40; seq++) await publishQos1(device, topics.telemetry(LEVEL_2), levelMsg(LEVEL_2, 2 + seq / 100, { boot: 'stopped', seq }));
    s = await startServer(env, { dataDir: dir });
    try {
      await waitFor(async () => (await countReadings(s, LEVEL_2)) === 40, 10_000);
    } finally {
      await s.close();
    }
  });

  it('a SIGKILL in the middle of a QoS 1 burst loses nothing and stores each reading once', async () => {
    const dir = dataDir();
    const env = { MQTT_URL: broker.adminUrl };
    children.push(await spawnServer(dir, env));
    const device = await connectDevice({ mqttUrl: broker.url } as TestServer, LEVEL_1, { password: demoKey(LEVEL_1) });
    clients.push(device);
    const total = 3000;
    let acked = 0;
    const sends: Promise<void>[] = [];
    for (let seq = 0; seq < total; seq++) {
      sends.push(publishQos1(device, topics.telemetry(LEVEL_1), levelMsg(LEVEL_1, seq / 1000, { boot: 'burst', seq })).then(() => void acked++));
    }
    await waitFor(() => acked >= total / 4, 20_000);
    killGroup(children[0]!, 'SIGKILL');
    await children[0]!.exited;
    expect(await groupGone(children[0]!)).toBe(true);
    // The broker acknowledges the rest to the device and holds it for the server's sessions.
    await Promise.all(sends);
    const before = await storedSeqs(dir, LEVEL_1);
    expect(before.total).toBeLessThan(total);
    children.push(await spawnServer(dir, env));
    await waitFor(async () => (await storedSeqs(dir, LEVEL_1)).distinct === total, 45_000, 100).catch(async (err: unknown) => {
      throw new Error(`after the restart: ${JSON.stringify(await storedSeqs(dir, LEVEL_1))} of ${total}\n${children[1]!.output().slice(-2000)}\n${broker.log().slice(-6000)}`, { cause: err });
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(await storedSeqs(dir, LEVEL_1)).toEqual({ total, distinct: total });
  }, 90_000);

  it('an instance renamed after releasing its sessions (MQTT_RELEASE_SESSIONS) leaves no share of later messages behind', async () => {
    const dir = dataDir();
    const old = await startServer({ MQTT_URL: broker.adminUrl, INSTANCE_ID: 'agua-vieja', MQTT_RELEASE_SESSIONS: 'true' }, { dataDir: dir });
    await old.close();
    const s = await startServer({ MQTT_URL: broker.adminUrl, INSTANCE_ID: 'agua-nueva' }, { dataDir: dir });
    try {
      const device = await connectDevice(s, LEVEL_2, { password: demoKey(LEVEL_2) });
      clients.push(device);
      // Without the release, the old sessions would still be in the shared subscription and hold
      // about half of these (8 of 16 sessions) until they expire.
      for (let seq = 0; seq < 40; seq++) await publishQos1(device, topics.telemetry(LEVEL_2), levelMsg(LEVEL_2, 1 + seq / 100, { boot: 'renamed', seq }));
      await waitFor(async () => (await countReadings(s, LEVEL_2)) === 40, 10_000);
    } finally {
      await s.close();
    }
  });

  it('a start waits for a broker that is not up yet, and serves once it is', async () => {
    const port = await freePort();
    const password = 'late-broker-password';
    const dir = dataDir();
    const starting = startServer({ MQTT_URL: `mqtt://admin:${password}@127.0.0.1:${port}` }, { dataDir: dir });
    await sleep(2_000);
    const late = await startMosquitto({ port, adminPassword: password });
    try {
      const s = await starting;
      try {
        expect((await s.fetch('/api/health')).status).toBe(200);
        const device = await connectDevice(s, LEVEL_1, { password: demoKey(LEVEL_1) });
        clients.push(device);
        await publishQos1(device, topics.telemetry(LEVEL_1), levelMsg(LEVEL_1, 3.5));
        await waitFor(async () => (await countReadings(s, LEVEL_1)) === 1, 5000);
      } finally {
        await s.close();
      }
    } finally {
      await late.stop();
    }
  });

  it("at start the broker's accounts are reconciled: a gone device's account deleted, one enabled by hand disabled again, the utility's own clients untouched", async () => {
    const dir = dataDir();
    const env = { MQTT_URL: broker.adminUrl, INSTANCE_ID: 'agua-planta-1' };
    let s = await startServer(env, { dataDir: dir });
    const admin = await s.login('admin');
    const { apiKey } = await createDevice(s, admin, { id: 'rec_nivel_01', name: 'Sensor', location: 'Planta', type: 'level_sensor', config: { maxLevel: 10 } });
    expect((await s.fetch('/api/v1/devices/rec_nivel_01', { method: 'PATCH', cookie: admin, json: { enabled: false } })).status).toBe(200);
    await s.close();
    // While the server is away: someone enables the device's account by hand, an account is left
    // over from a device that no longer exists, and the utility adds a client of its own.
    broker.ctrl('enableClient', 'rec_nivel_01');
    broker.ctrl('createRole', 'agua-device-rec_ghost_01');
    broker.ctrl('createClient', 'rec_ghost_01', '-p', 'ghost-password');
    broker.ctrl('addClientRole', 'rec_ghost_01', 'agua-device-rec_ghost_01');
    broker.ctrl('createClient', 'plc_planta_01', '-p', 'plc-password');
    await expect(connectDevice({ mqttUrl: broker.url } as TestServer, 'rec_nivel_01', { password: apiKey }).then((c) => endClient(c, true))).resolves.toBeUndefined();
    s = await startServer(env, { dataDir: dir });
    try {
      const listed = broker.ctrl('listClients');
      expect(listed).not.toContain('rec_ghost_01');
      expect(listed).toContain('plc_planta_01');
      expect(broker.ctrl('listRoles')).not.toContain('agua-device-rec_ghost_01');
      await expect(connectDevice(s, 'rec_nivel_01', { password: apiKey })).rejects.toThrow();
    } finally {
      await s.close();
    }
  });
});
