// docs/external-broker.md "External broker": the server against a real Mosquitto 2 with the dynamic security
// plugin, started by the test. Devices created, disabled, rotated and retired through the API are
// kept in step on the broker; the broker enforces each device's topics.
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topics } from '@agua/shared';
import { createDevice, expectApiError, issueOk, jsonOf, waitForCommandStatus } from '../helpers/api';
import { BrokerCredentials } from '../../src/features/mqtt/external/broker-credentials';
import { ExternalBroker } from '../../src/features/mqtt/external/external-broker';
import { startMosquitto, type TestMosquitto } from '../helpers/mosquitto';
import { connectDevice, countReadings, endClient, getDevice, levelMsg, publishQos1, sleep, subscribeCodes, waitFor } from '../helpers/protocol';
import { startServer, type TestServer } from '../helpers/server';
import { sqlGet } from '../helpers/sql';

describe('external broker: device accounts kept in step', () => {
  let broker: TestMosquitto;
  let s: TestServer;
  let admin: string;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    broker = await startMosquitto();
    s = await startServer({ MQTT_URL: broker.adminUrl, DEVICE_OFFLINE_AFTER_S: '600' });
    admin = await s.login('admin');
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => endClient(c, true)));
    await s?.close();
    await broker?.stop();
  });

  async function newSensor(id: string): Promise<string> {
    const { apiKey } = await createDevice(s, admin, { id, name: `Sensor ${id}`, location: 'Planta', type: 'level_sensor', config: { maxLevel: 10 } });
    return apiKey;
  }

  async function connect(id: string, key: string, extra: Record<string, unknown> = {}): Promise<MqttClient> {
    const client = await connectDevice(s, id, { password: key, ...extra });
    clients.push(client);
    return client;
  }

  function closed(client: MqttClient): Promise<void> {
    return new Promise((resolve) => (client.connected ? client.once('close', () => resolve()) : resolve()));
  }

  it('a device created through the API connects, publishes, is stored; online from its status, offline from its will', async () => {
    const key = await newSensor('ext_nivel_01');
    const device = await connect('ext_nivel_01', key, {
      will: { topic: topics.status('ext_nivel_01'), payload: Buffer.from('offline'), qos: 1, retain: true },
    });
    await new Promise<void>((resolve, reject) => device.publish(topics.status('ext_nivel_01'), 'online', { qos: 1, retain: true }, (err) => (err ? reject(err) : resolve())));
    await waitFor(async () => (await getDevice(s, admin, 'ext_nivel_01')).status === 'online', 5000);
    await publishQos1(device, topics.telemetry('ext_nivel_01'), levelMsg('ext_nivel_01', 4.2, { seq: 1, boot: 'b1' }));
    await waitFor(async () => (await countReadings(s, 'ext_nivel_01')) === 1, 5000);
    expect((await getDevice(s, admin, 'ext_nivel_01')).reading?.value).toBe(4.2);
    // An abrupt end: the broker publishes the will.
    device.stream.destroy();
    await waitFor(async () => (await getDevice(s, admin, 'ext_nivel_01')).status === 'offline', 5000);
  });

  it('a wrong key is refused by the broker at CONNECT', async () => {
    await newSensor('ext_nivel_02');
    await expect(connectDevice(s, 'ext_nivel_02', { password: 'not-the-key' })).rejects.toThrow();
  });

  it("'Desconectar' closes the session and refuses the next CONNECT; 'Conectar' lets it in again", async () => {
    const key = await newSensor('ext_nivel_03');
    const device = await connect('ext_nivel_03', key);
    const gone = closed(device);
    const res = await s.fetch('/api/v1/devices/ext_nivel_03', { method: 'PATCH', cookie: admin, json: { enabled: false } });
    expect(res.status).toBe(200);
    await gone;
    await expect(connectDevice(s, 'ext_nivel_03', { password: key })).rejects.toThrow();
    expect((await s.fetch('/api/v1/devices/ext_nivel_03', { method: 'PATCH', cookie: admin, json: { enabled: true } })).status).toBe(200);
    await connect('ext_nivel_03', key);
  });

  it('after a key rotation the old key is refused and its session closed; the new key works', async () => {
    const oldKey = await newSensor('ext_nivel_04');
    const device = await connect('ext_nivel_04', oldKey);
    const gone = closed(device);
    const { status, body } = await jsonOf<{ apiKey: string }>(await s.fetch('/api/v1/devices/ext_nivel_04/key', { method: 'POST', cookie: admin }));
    expect(status).toBe(200);
    await gone;
    await expect(connectDevice(s, 'ext_nivel_04', { password: oldKey })).rejects.toThrow();
    const fresh = await connect('ext_nivel_04', body.apiKey);
    await publishQos1(fresh, topics.telemetry('ext_nivel_04'), levelMsg('ext_nivel_04', 1.5));
    await waitFor(async () => (await countReadings(s, 'ext_nivel_04')) === 1, 5000);
  });

  it("a foreign topic is refused by the broker: nothing reaches the other device's readings or commands", async () => {
    const key = await newSensor('ext_nivel_05');
    await newSensor('ext_nivel_06');
    const device = await connect('ext_nivel_05', key, { protocolVersion: 5 });
    expect(await subscribeCodes(device, topics.commands('ext_nivel_06'))).toEqual([0x87]);
    expect(await subscribeCodes(device, topics.commands('ext_nivel_05'))).toEqual([1]);
    // MQTT 5: the broker answers a refused publish with "not authorized" and drops it.
    await expect(publishQos1(device, topics.telemetry('ext_nivel_06'), levelMsg('ext_nivel_06', 9.9))).rejects.toThrow();
    await expect(publishQos1(device, topics.commands('ext_nivel_05'), { id: 'cmd_forged', command: 'restart' })).rejects.toThrow();
    await sleep(300);
    expect(await countReadings(s, 'ext_nivel_06')).toBe(0);
  });

  it('a command goes to the device through the broker and its acknowledgement completes it', async () => {
    const key = await newSensor('ext_nivel_07');
    const device = await connect('ext_nivel_07', key);
    await new Promise<void>((resolve) => device.publish(topics.status('ext_nivel_07'), 'online', { qos: 1, retain: true }, () => resolve()));
    expect(await subscribeCodes(device, topics.commands('ext_nivel_07'))).toEqual([1]);
    await waitFor(async () => (await getDevice(s, admin, 'ext_nivel_07')).status === 'online', 5000);
    const received = new Promise<{ id: string; command: string }>((resolve) => device.once('message', (_t, p) => resolve(JSON.parse(p.toString()))));
    const operator = await s.login('operator');
    const commandId = await issueOk(s, operator, 'ext_nivel_07', 'read');
    const command = await received;
    expect(command).toMatchObject({ id: commandId, command: 'read' });
    await publishQos1(device, topics.commandAck('ext_nivel_07'), { commandId, success: true });
    await waitForCommandStatus(s, operator, commandId, 'succeeded');
  });

  it('a refused message is acknowledged by the broker and the refusal reaches the errors topic', async () => {
    const key = await newSensor('ext_nivel_08');
    const device = await connect('ext_nivel_08', key);
    expect(await subscribeCodes(device, topics.errors('ext_nivel_08'))).toEqual([1]);
    const refusal = new Promise<{ code: string }>((resolve) => device.once('message', (_t, p) => resolve(JSON.parse(p.toString()))));
    await new Promise<void>((resolve) => device.publish(topics.telemetry('ext_nivel_08'), '{not json', { qos: 1 }, () => resolve()));
    expect((await refusal).code).toBe('INVALID_JSON');
    expect(await countReadings(s, 'ext_nivel_08')).toBe(0);
  });

  it("a key that is not the device's (a rotation that failed after it was written) never reaches the broker", async () => {
    const key = await newSensor('ext_nivel_10');
    const pepper = (await sqlGet<{ value: string }>(s, "SELECT value FROM settings WHERE key = 'device_key_pepper'"))!.value;
    await new BrokerCredentials(s.modules.storage.db, pepper).put('ext_nivel_10', 'not-its-key', Date.now() - 120_000);
    // Any change makes the server sync the account.
    expect((await s.fetch('/api/v1/devices/ext_nivel_10', { method: 'PATCH', cookie: admin, json: { enabled: false } })).status).toBe(200);
    expect((await s.fetch('/api/v1/devices/ext_nivel_10', { method: 'PATCH', cookie: admin, json: { enabled: true } })).status).toBe(200);
    await expect(connectDevice(s, 'ext_nivel_10', { password: 'not-its-key' })).rejects.toThrow();
    await connect('ext_nivel_10', key);
  });

  it('a waiting key sealed under another pepper is reported by the reconciliation, and the account is still kept in step', async () => {
    const key = await newSensor('ext_nivel_11');
    const device = await connect('ext_nivel_11', key);
    // As if DEVICE_KEY_PEPPER had been changed after the key was sealed.
    await new BrokerCredentials(s.modules.storage.db, 'a-pepper-this-server-never-had').put('ext_nivel_11', 'sealed-elsewhere');
    const gone = closed(device);
    // 'Desconectar' still reaches the broker: the session is cut off and the key refused.
    expect((await s.fetch('/api/v1/devices/ext_nivel_11', { method: 'PATCH', cookie: admin, json: { enabled: false } })).status).toBe(200);
    await gone;
    await expect(connectDevice(s, 'ext_nivel_11', { password: key })).rejects.toThrow();
    const transport = s.modules.mqtt.transport;
    if (!(transport instanceof ExternalBroker)) throw new Error('this test is about the external broker');
    const report = await transport.accounts.reconcile();
    expect(report.unreadableKey).toEqual(['ext_nivel_11']);
    expect(report.created).toEqual([]);
  });

  it('retiring a device deletes its broker account', async () => {
    const key = await newSensor('ext_nivel_09');
    const device = await connect('ext_nivel_09', key);
    const gone = closed(device);
    expect((await s.fetch('/api/v1/devices/ext_nivel_09', { method: 'DELETE', cookie: admin })).status).toBe(204);
    await gone;
    expect(broker.ctrl('listClients')).not.toContain('ext_nivel_09');
    await expect(connectDevice(s, 'ext_nivel_09', { password: key })).rejects.toThrow();
    await expectApiError(await s.fetch('/api/v1/devices/ext_nivel_09', { cookie: admin }), 404);
  });
});
