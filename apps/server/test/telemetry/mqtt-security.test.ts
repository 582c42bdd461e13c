// docs/protocol.md "MQTT", hardened: a device publishes only its telemetry, acks and (small, retained)
// status; it receives only what the server publishes for it; nothing it left retained outlives its
// key; the broker holds a bounded queue per client and a bounded number of connections per address.
import net from 'node:net';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { topics } from '@agua/shared';
import { MAX_QUEUED_PER_CLIENT, MqttBroker } from '../../src/features/mqtt/mqtt.broker';
import { demoKey, startServer, type TestServer } from '../helpers/server';
import { GATE_1, GATE_2, LEVEL_1, LEVEL_2, connectDevice, countReadings, endClient, gateMsg, levelMsg, postTelemetry, publishQos1, sleep, subscribeCodes, waitFor } from '../helpers/protocol';
import { createDevice, expectApiError, issueOk, jsonOf, waitForCommandStatus } from '../helpers/api';

/** These tests look inside the embedded broker (its retained messages and queues). */
function embedded(s: TestServer): MqttBroker {
  if (!(s.modules.mqtt.transport instanceof MqttBroker)) throw new Error('not the embedded broker');
  return s.modules.mqtt.transport;
}

/** How long a "receives nothing" check waits after its SUBACK (retained messages follow it at once). */
const QUIET_MS = 400;

interface Received {
  topic: string;
  payload: string;
  retain: boolean;
}

/** Current key of each device (rotations change it). */
const keys: Record<string, string> = {};
const keyOf = (id: string) => keys[id] ?? demoKey(id);

const clients: MqttClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => endClient(c, true)));
});

/** A connected device that keeps every message it receives, from the first one. */
async function device(s: TestServer, id: string, opts: Partial<IClientOptions> = {}): Promise<{ client: MqttClient; got: Received[] }> {
  const got: Received[] = [];
  const client = await connectDevice(s, id, { password: keyOf(id), ...opts });
  clients.push(client);
  client.on('message', (topic, payload, packet) => got.push({ topic, payload: payload.toString(), retain: packet.retain }));
  return { client, got };
}

/** Resolves when the server closes the connection; fails after 3 s. */
function closedByServer(c: MqttClient): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!c.connected) return resolve();
    const timer = setTimeout(() => reject(new Error('connection not closed within 3 s')), 3000);
    c.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** A command with a far-future expiry, as a forger would write it. */
const forgedCommand = () =>
  JSON.stringify({ id: 'cmd_forged', command: 'abrir', issuedAt: new Date().toISOString(), expiresAt: '2099-01-01T00:00:00.000Z' });

async function rotateKey(s: TestServer, admin: string, id: string): Promise<string> {
  const res = await jsonOf<{ apiKey: string }>(await s.fetch(`/api/v1/devices/${id}/key`, { method: 'POST', cookie: admin }));
  expect(res.status).toBe(200);
  return res.body.apiKey;
}

const patch = (s: TestServer, admin: string, id: string, body: unknown) => s.fetch(`/api/v1/devices/${id}`, { method: 'PATCH', cookie: admin, json: body });

describe('MQTT hardening (no rate limit)', () => {
  let s: TestServer;
  let admin: string;
  let operator: string;

  beforeAll(async () => {
    s = await startServer({ DEVICE_RATE_LIMIT: '0', DEVICE_OFFLINE_AFTER_S: '300' });
    [admin, operator] = await Promise.all([s.login('admin'), s.login('operator')]);
  });
  afterAll(async () => s.close());

  describe('a device cannot forge commands', () => {
    it.each([
      ['its own commands, retained', 'commands', true],
      ['its own commands', 'commands', false],
      ['its own errors, retained', 'errors', true],
      ['its own errors', 'errors', false],
    ] as const)('publishing to %s closes the connection and leaves nothing retained', async (_name, leaf, retain) => {
      const { client } = await device(s, GATE_2);
      const closed = closedByServer(client);
      client.publish(`agua/v1/${GATE_2}/${leaf}`, forgedCommand(), { qos: 1, retain });
      await closed;
      expect(await embedded(s).retainedTopics(GATE_2)).toEqual([]);
    });

    it('a later session — and one after a key rotation — receives no forged command', async () => {
      const first = await device(s, GATE_2);
      const closed = closedByServer(first.client);
      first.client.publish(topics.commands(GATE_2), forgedCommand(), { qos: 1, retain: true });
      await closed;

      const later = await device(s, GATE_2);
      expect(await subscribeCodes(later.client, [topics.commands(GATE_2), topics.errors(GATE_2)])).toEqual([1, 1]);
      await sleep(QUIET_MS);
      expect(later.got).toEqual([]);

      keys[GATE_2] = await rotateKey(s, admin, GATE_2);
      const rotated = await device(s, GATE_2);
      expect(await subscribeCodes(rotated.client, `agua/v1/${GATE_2}/#`)).toEqual([1]);
      await sleep(QUIET_MS);
      expect(rotated.got).toEqual([]);
    });

    it('a last will on its own commands topic is not published', async () => {
      const will = { topic: topics.commands(GATE_1), payload: Buffer.from(forgedCommand()), qos: 1 as const, retain: true };
      const { client } = await device(s, GATE_1, { will });
      client.stream.destroy();
      await sleep(200);
      expect(await embedded(s).retainedTopics(GATE_1)).toEqual([]);
      const later = await device(s, GATE_1);
      await subscribeCodes(later.client, topics.commands(GATE_1));
      await sleep(QUIET_MS);
      expect(later.got).toEqual([]);
    });
  });

  describe('retain', () => {
    it('retained telemetry closes the connection; nothing is stored or retained', async () => {
      const { client } = await device(s, LEVEL_1);
      const before = await countReadings(s, LEVEL_1);
      const closed = closedByServer(client);
      client.publish(topics.telemetry(LEVEL_1), JSON.stringify(levelMsg(LEVEL_1, 1.5)), { qos: 1, retain: true });
      await closed;
      expect(await countReadings(s, LEVEL_1)).toBe(before);
      expect(await embedded(s).retainedTopics(LEVEL_1)).toEqual([]);
    });

    it('a retained command ack closes the connection too', async () => {
      const { client } = await device(s, LEVEL_1);
      const closed = closedByServer(client);
      client.publish(topics.commandAck(LEVEL_1), JSON.stringify({ id: 'cmd_x', success: true }), { qos: 1, retain: true });
      await closed;
      expect(await embedded(s).retainedTopics(LEVEL_1)).toEqual([]);
    });

    it('a retained status `online` is accepted and a later session finds it; one of 1 KB closes the connection', async () => {
      const { client } = await device(s, LEVEL_2);
      await publishRetained(client, topics.status(LEVEL_2), 'online');
      expect(client.connected).toBe(true);

      const closed = closedByServer(client);
      client.publish(topics.status(LEVEL_2), 'x'.repeat(1024), { qos: 1, retain: true });
      await closed;

      const later = await device(s, LEVEL_2);
      await subscribeCodes(later.client, topics.status(LEVEL_2));
      await waitFor(() => later.got.length > 0, 2000);
      expect(later.got).toEqual([{ topic: topics.status(LEVEL_2), payload: 'online', retain: true }]);
    });
  });

  describe('what a device left retained goes with its key', () => {
    /** Connects, leaves `online` retained (and an `offline` will), and resolves once the server cut it. */
    async function leaveRetainedStatus(id: string, revoke: () => Promise<void>): Promise<void> {
      const will = { topic: topics.status(id), payload: Buffer.from('offline'), qos: 1 as const, retain: true };
      const { client } = await device(s, id, { will });
      await publishRetained(client, topics.status(id), 'online');
      expect(await embedded(s).retainedTopics(id)).toEqual([topics.status(id)]);
      const closed = closedByServer(client);
      await revoke();
      await closed;
      await sleep(100); // a will would land now
    }

    async function expectNothingRetained(id: string): Promise<void> {
      const later = await device(s, id);
      expect(await subscribeCodes(later.client, `agua/v1/${id}/#`)).toEqual([1]);
      await sleep(QUIET_MS);
      expect(later.got).toEqual([]);
      expect(await embedded(s).retainedTopics(id)).toEqual([]);
    }

    it('key rotation: the new key finds nothing retained (not even the old session\'s will)', async () => {
      await leaveRetainedStatus(LEVEL_1, async () => {
        keys[LEVEL_1] = await rotateKey(s, admin, LEVEL_1);
      });
      await expectNothingRetained(LEVEL_1);
    });

    it('disable: once enabled again, the device finds nothing retained', async () => {
      await leaveRetainedStatus(GATE_1, async () => {
        expect((await patch(s, admin, GATE_1, { enabled: false })).status).toBe(200);
      });
      expect((await patch(s, admin, GATE_1, { enabled: true })).status).toBe(200);
      await expectNothingRetained(GATE_1);
    });

    it('retire, then purge and a new device under the same id: nothing retained reaches it', async () => {
      const id = 'nivel_seguridad';
      keys[id] = (await createDevice(s, admin, { id, name: 'Seguridad', location: 'L', type: 'level_sensor', config: { maxLevel: 10 } })).apiKey;
      await leaveRetainedStatus(id, async () => {
        expect((await s.fetch(`/api/v1/devices/${id}`, { method: 'DELETE', cookie: admin })).status).toBe(204);
      });
      expect(await embedded(s).retainedTopics(id)).toEqual([]);

      expect((await s.fetch(`/api/v1/devices/${id}?purge=true`, { method: 'DELETE', cookie: admin })).status).toBe(204);
      keys[id] = (await createDevice(s, admin, { id, name: 'Seguridad 2', location: 'L', type: 'level_sensor', config: { maxLevel: 5 } })).apiKey;
      await expectNothingRetained(id);
    });
  });

  describe('what a device receives', () => {
    it('subscribed to its whole prefix: no echo of its telemetry, status or ack, but the server\'s command', async () => {
      const { client, got } = await device(s, GATE_2);
      expect(await subscribeCodes(client, `agua/v1/${GATE_2}/#`)).toEqual([1]);
      await publishQos1(client, topics.telemetry(GATE_2), gateMsg(GATE_2, 'cerrada'));
      await publishQos1(client, topics.status(GATE_2), 'online');
      await sleep(QUIET_MS);
      expect(got).toEqual([]);

      const commandId = await issueOk(s, operator, GATE_2, 'abrir');
      await waitFor(() => got.length > 0, 1000);
      expect(got[0]!.topic).toBe(topics.commands(GATE_2));
      expect(JSON.parse(got[0]!.payload)).toMatchObject({ id: commandId, command: 'abrir' });

      await publishQos1(client, topics.commandAck(GATE_2), { id: commandId, success: true, state: 'abriendo' });
      await waitForCommandStatus(s, operator, commandId, 'succeeded', 2000);
      await sleep(QUIET_MS);
      expect(got.map((m) => m.topic)).toEqual([topics.commands(GATE_2)]);
    });
  });

  describe('queued QoS 1 messages', () => {
    it(`an offline persistent session holds at most ${MAX_QUEUED_PER_CLIENT}: the newest`, async () => {
      const persistent = await device(s, LEVEL_2, { clean: false });
      expect(await subscribeCodes(persistent.client, topics.commands(LEVEL_2))).toEqual([1]);
      await endClient(persistent.client);

      const sent = MAX_QUEUED_PER_CLIENT + 50;
      for (let seq = 0; seq < sent; seq++) await s.modules.mqtt.transport.publish(topics.commands(LEVEL_2), { seq });
      expect(await embedded(s).queuedMessages(LEVEL_2)).toBe(MAX_QUEUED_PER_CLIENT);

      // Back with the same session: the newest ones arrive, in order.
      const got: number[] = [];
      const back = mqtt.connect(s.mqttUrl, { protocolVersion: 4, clientId: LEVEL_2, username: LEVEL_2, password: keyOf(LEVEL_2), clean: false, reconnectPeriod: 0 });
      clients.push(back);
      back.on('message', (_t, payload) => got.push((JSON.parse(payload.toString()) as { seq: number }).seq));
      await waitFor(() => got.length >= MAX_QUEUED_PER_CLIENT, 3000);
      await sleep(200);
      expect(got).toEqual(Array.from({ length: MAX_QUEUED_PER_CLIENT }, (_, i) => sent - MAX_QUEUED_PER_CLIENT + i));
      await device(s, LEVEL_2); // a clean session ends the persistent one
    });
  });

  describe('JSON rules as over HTTP', () => {
    const poisoned = [
      `{"__proto__":{"deviceId":"${GATE_1}","type":"motorized_gate","data":{"value":"abierta"}}}`,
      `{"deviceId":"${GATE_1}","type":"motorized_gate","data":{"value":"abierta","__proto__":{"polluted":"yes"}}}`,
      `{"deviceId":"${GATE_1}","type":"motorized_gate","data":{"value":"abierta"},"constructor":{"prototype":{"polluted":"yes"}}}`,
    ];

    it('__proto__ / constructor.prototype in telemetry: the code HTTP gives (400 INVALID_JSON) on the errors topic, nothing stored, still connected', async () => {
      for (const raw of poisoned) await expectApiError(await postTelemetry(s, null, { raw, key: keyOf(GATE_1) }), 400, 'INVALID_JSON');

      const { client, got } = await device(s, GATE_1);
      await subscribeCodes(client, topics.errors(GATE_1));
      const before = await countReadings(s, GATE_1);
      for (const raw of poisoned) await publishQos1(client, topics.telemetry(GATE_1), raw);
      await waitFor(() => got.length >= poisoned.length, 2000);
      expect(got.map((m) => JSON.parse(m.payload).code)).toEqual(poisoned.map(() => 'INVALID_JSON'));
      expect(await countReadings(s, GATE_1)).toBe(before);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(client.connected).toBe(true);
    });

    it('__proto__ in a command ack: INVALID_JSON on the errors topic', async () => {
      const { client, got } = await device(s, GATE_1);
      await subscribeCodes(client, topics.errors(GATE_1));
      await publishQos1(client, topics.commandAck(GATE_1), '{"id":"cmd_x","success":true,"__proto__":{"success":false}}');
      await waitFor(() => got.length > 0, 2000);
      expect(JSON.parse(got[0]!.payload)).toMatchObject({ code: 'INVALID_JSON' });
      expect(client.connected).toBe(true);
    });
  });
});

describe('MQTT connections per address (MAX_CONNECTIONS_PER_ADDRESS=3, a balancer at 127.0.0.9)', () => {
  const CAP = 3;
  const BALANCER = '127.0.0.9';
  let s: TestServer;
  const sockets: net.Socket[] = [];
  beforeAll(async () => {
    s = await startServer({ MAX_CONNECTIONS_PER_ADDRESS: String(CAP), TRUST_PROXY: BALANCER });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await s.close();
  });

  /** A raw TCP connection to the MQTT port from `localAddress`; resolves once connected. */
  function open(localAddress = '127.0.0.1'): Promise<net.Socket> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: '127.0.0.1', port: s.mqttPort, localAddress }, () => resolve(socket));
      socket.on('error', reject);
      sockets.push(socket);
    });
  }

  /** Whether the server closes the socket within `ms`. */
  function closesWithin(socket: net.Socket, ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      if (socket.destroyed) return resolve(true);
      const timer = setTimeout(() => resolve(false), ms);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** A full MQTT session (CONNACK) over a connection from `localAddress`. */
  function mqttFrom(localAddress: string): Promise<MqttClient> {
    return new Promise((resolve, reject) => {
      const client = new mqtt.MqttClient(() => net.connect({ host: '127.0.0.1', port: s.mqttPort, localAddress }), {
        protocolVersion: 4,
        clientId: LEVEL_1,
        username: LEVEL_1,
        password: demoKey(LEVEL_1),
        reconnectPeriod: 0,
        connectTimeout: 3000,
      });
      clients.push(client);
      client.once('connect', () => resolve(client));
      client.once('error', reject);
      client.once('close', () => reject(new Error('closed before CONNACK')));
    });
  }

  it('one connection over the cap is closed at once; another address still connects; a freed slot is reused', async () => {
    const idle = await Promise.all(Array.from({ length: CAP }, () => open()));
    const over = await open().catch(() => null);
    expect(over === null || (await closesWithin(over, 1000))).toBe(true);
    expect(idle.map((socket) => socket.destroyed)).toEqual(idle.map(() => false));

    const other = await mqttFrom('127.0.0.2');
    expect(other.connected).toBe(true);

    idle[0]!.destroy();
    await sleep(100);
    const reused = await open();
    expect(await closesWithin(reused, 300)).toBe(false);
  });

  it('a load balancer named in TRUST_PROXY speaks for many devices: it is not capped', async () => {
    const many = await Promise.all(Array.from({ length: CAP + 3 }, () => open(BALANCER)));
    const closed = await Promise.all(many.map((socket) => closesWithin(socket, 500)));
    expect(closed.every((c) => !c)).toBe(true);
  });
});

/** Publishes retained at QoS 1 and resolves on the PUBACK. */
function publishRetained(client: MqttClient, topic: string, payload: string): Promise<void> {
  return new Promise((resolve, reject) => client.publish(topic, payload, { qos: 1, retain: true }, (err) => (err ? reject(err) : resolve())));
}
