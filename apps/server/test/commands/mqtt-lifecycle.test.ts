// docs/protocol.md "MQTT" and "Commands": a device that speaks MQTT (mqtt.js 3.1.1) receives commands on
// agua/v1/{id}/commands and acknowledges them on agua/v1/{id}/commands/ack.
import type { MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server';
import { GATE_1, GATE_2, LEVEL_1, connectDevice, endClient, getDevice, publishQos1, sleep, waitFor } from '../helpers/protocol';
import { ISO_Z, getCommand, issueOk, jsonOf, longPoll, waitForCommandStatus, type DeviceCommandMsg } from '../helpers/api';

const topic = (id: string, leaf: string) => `agua/v1/${id}/${leaf}`;

interface Received<T> {
  msg: T;
  at: number;
}

/** A device on MQTT subscribed to its commands and errors, keeping what arrives. */
class MqttDevice {
  readonly commands: Array<Received<DeviceCommandMsg>> = [];
  readonly errors: Array<Received<{ error: string; code: string; details?: unknown }>> = [];
  constructor(
    readonly id: string,
    readonly client: MqttClient,
  ) {
    client.on('message', (t, payload) => {
      const msg = JSON.parse(payload.toString()) as never;
      if (t === topic(id, 'commands')) this.commands.push({ msg, at: Date.now() });
      if (t === topic(id, 'errors')) this.errors.push({ msg, at: Date.now() });
    });
  }

  static async connect(s: TestServer, id: string): Promise<MqttDevice> {
    const client = await connectDevice(s, id);
    const d = new MqttDevice(id, client);
    await client.subscribeAsync([topic(id, 'commands'), topic(id, 'errors')], { qos: 1 });
    return d;
  }

  async nextCommand(from: number, timeoutMs: number): Promise<Received<DeviceCommandMsg>> {
    return waitFor(() => this.commands[from], timeoutMs, 10) as Promise<Received<DeviceCommandMsg>>;
  }

  ack(body: unknown): Promise<void> {
    return publishQos1(this.client, topic(this.id, 'commands/ack'), body);
  }
}

const devices: MqttDevice[] = [];
async function device(s: TestServer, id: string): Promise<MqttDevice> {
  const d = await MqttDevice.connect(s, id);
  devices.push(d);
  return d;
}
afterEach(async () => {
  await Promise.all(devices.splice(0).map((d) => endClient(d.client, true)));
});

describe('MQTT device (COMMAND_TIMEOUT_S=20)', () => {
  let s: TestServer;
  let operator: string;
  beforeAll(async () => {
    s = await startServer({ DEVICE_RATE_LIMIT: '0', COMMAND_TIMEOUT_S: '20' });
    operator = await s.login('operator');
  });
  afterAll(async () => s.close());

  it('receives abrir within 1 s; ack with id + state → succeeded and the gate shows abriendo', async () => {
    const d = await device(s, GATE_2);
    await waitFor(async () => (await getDevice(s, operator, GATE_2)).status === 'online');

    const t = Date.now();
    const id = await issueOk(s, operator, GATE_2, 'abrir');
    const got = await d.nextCommand(0, 1000);
    expect(got.at - t).toBeLessThan(1000);
    expect(Object.keys(got.msg).sort()).toEqual(['command', 'expiresAt', 'id', 'issuedAt']);
    expect(got.msg).toMatchObject({ id, command: 'abrir' });
    expect(got.msg.issuedAt).toMatch(ISO_Z);
    // A device with a session gets COMMAND_TIMEOUT_S.
    expect(Date.parse(got.msg.expiresAt) - Date.parse(got.msg.issuedAt)).toBe(20_000);
    expect((await getCommand(s, operator, id)).status).toBe('delivered');

    await d.ack({ id, success: true, state: 'abriendo' });
    const done = await waitForCommandStatus(s, operator, id, 'succeeded', 2000);
    expect(done.completedAt).toMatch(ISO_Z);
    expect((await getDevice(s, operator, GATE_2)).config.state).toBe('abriendo');
    expect(d.errors).toEqual([]);

    // The HTTP path has nothing left for this device.
    expect(await jsonOf(await longPoll(s, GATE_2, { wait: '0' }))).toEqual({ status: 200, body: [] });
  });

  it('failure ack (body names the command as commandId) → failed with the message', async () => {
    const d = await device(s, GATE_2);
    const id = await issueOk(s, operator, GATE_2, 'cerrar');
    const got = await d.nextCommand(0, 1000);
    expect(got.msg.id).toBe(id);
    await d.ack({ commandId: id, success: false, message: 'Motor bloqueado' });
    const failed = await waitForCommandStatus(s, operator, id, 'failed', 2000);
    expect(failed.message).toBe('Motor bloqueado');
    expect((await getDevice(s, operator, GATE_2)).config.state).toBe('abriendo'); // unchanged
  });

  it('bad acknowledgements are refused on the errors topic and change nothing', async () => {
    const d = await device(s, GATE_2);
    const id = await issueOk(s, operator, GATE_2, 'abrir');
    await d.nextCommand(0, 1000);

    await d.ack({ id: 'cmd_unknown', success: true });
    await d.ack({ id: 5, success: true }); // an id that is not a string
    await d.ack({ id, success: 'yes' });
    await d.ack({ id, success: true, state: 'volando' });
    await publishQos1(d.client, topic(GATE_2, 'commands/ack'), '{not json');
    await waitFor(() => d.errors.length >= 5, 2000);
    // Each PUBACK comes after its ack was judged, so the refusals arrive in order.
    expect(d.errors.map((e) => e.msg.code)).toEqual(['COMMAND_NOT_FOUND', 'MESSAGE_INVALID', 'MESSAGE_INVALID', 'VALUE_INVALID', 'INVALID_JSON']);
    for (const e of d.errors) {
      expect(typeof e.msg.error).toBe('string');
      expect(e.msg.error.length).toBeGreaterThan(0);
    }
    expect(d.client.connected).toBe(true); // refusals keep the connection open

    expect((await getCommand(s, operator, id)).status).toBe('delivered');
    await d.ack({ id, success: true, state: 'abriendo' });
    await waitForCommandStatus(s, operator, id, 'succeeded', 2000);
  });

  it('an ack with exactly the HTTP body (no id) is for the command in flight; with none in flight only its gate state counts', async () => {
    const d = await device(s, GATE_2);
    const id = await issueOk(s, operator, GATE_2, 'cerrar');
    await d.nextCommand(0, 1000);
    await d.ack({ success: true, message: 'Cerrando', state: 'cerrando' });
    const done = await waitForCommandStatus(s, operator, id, 'succeeded', 2000);
    expect(done.message).toBe('Cerrando');
    expect((await getDevice(s, operator, GATE_2)).config.state).toBe('cerrando');

    await d.ack({ success: true, state: 'cerrada' }); // nothing in flight: a late ack
    await waitFor(async () => (await getDevice(s, operator, GATE_2)).config.state === 'cerrada', 2000);
    expect((await getCommand(s, operator, id)).status).toBe('succeeded');
    expect(d.errors).toEqual([]);
  });

  it('no ack → the same command id is published again after about 5 s', async () => {
    const d = await device(s, LEVEL_1);
    const id = await issueOk(s, operator, LEVEL_1, 'read');
    const first = await d.nextCommand(0, 1000);
    expect(first.msg.id).toBe(id);

    await sleep(3500);
    expect(d.commands).toHaveLength(1); // not before 5 s
    const second = await d.nextCommand(1, 4000);
    expect(second.msg).toEqual(first.msg);
    const gap = second.at - first.at;
    expect(gap).toBeGreaterThanOrEqual(4800);
    expect(gap).toBeLessThan(7000);
    expect((await getCommand(s, operator, id)).status).toBe('delivered');

    await d.ack({ id, success: true });
    await waitForCommandStatus(s, operator, id, 'succeeded', 2000);
  });

  it('a command pending while the device had no session reaches it over MQTT once it connects (first path available)', async () => {
    // GATE_1 reported over HTTP a moment ago, so it is online but holds no connection.
    const res = await fetch(`${s.url}/api/v1/telemetry`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'demo-key-esp32_compuerta_01' },
      body: JSON.stringify({ deviceId: GATE_1, type: 'motorized_gate', data: { value: 'cerrada' } }),
    });
    expect(res.status).toBe(202);
    const id = await issueOk(s, operator, GATE_1, 'abrir');
    expect((await getCommand(s, operator, id)).status).toBe('pending');

    // Then it (re)connects over MQTT and subscribes, as after a dropped link.
    const t = Date.now();
    const d = await device(s, GATE_1);
    const got = await d.nextCommand(0, 7000).catch(() => null);
    expect(got?.msg.id, 'pending command never published to the MQTT session that came up after it was issued').toBe(id);
    expect(got!.at - t).toBeLessThan(7000);
    await d.ack({ id, success: true, state: 'abriendo' });
    await waitForCommandStatus(s, operator, id, 'succeeded', 2000);
  });
});

describe('MQTT device: timeout (COMMAND_TIMEOUT_S=1)', () => {
  let s: TestServer;
  let operator: string;
  beforeAll(async () => {
    s = await startServer({ DEVICE_RATE_LIMIT: '0', COMMAND_TIMEOUT_S: '1' });
    operator = await s.login('operator');
  });
  afterAll(async () => s.close());

  it('no ack → timed_out after about 1–2 s, never published again; a late ack keeps timed_out but moves the gate', async () => {
    const d = await device(s, GATE_2);
    const t = Date.now();
    const id = await issueOk(s, operator, GATE_2, 'abrir');
    const got = await d.nextCommand(0, 1000);
    expect(Date.parse(got.msg.expiresAt) - Date.parse(got.msg.issuedAt)).toBe(1000);

    await waitForCommandStatus(s, operator, id, 'timed_out', 4000);
    const took = Date.now() - t;
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(3000);

    await d.ack({ id, success: true, state: 'abriendo' });
    await waitFor(async () => (await getDevice(s, operator, GATE_2)).config.state === 'abriendo', 2000);
    const after = await getCommand(s, operator, id);
    expect(after.status).toBe('timed_out');

    await sleep(5500 - (Date.now() - got.at)); // past the redelivery mark
    expect(d.commands).toHaveLength(1);
  });
});
