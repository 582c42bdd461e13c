// acknowledgeAfter (features/mqtt/external/acknowledge-after.ts) against a real Mosquitto: messages
// keep coming while earlier ones are being handled, a PUBACK goes only once its message is handled,
// and a message whose handling fails, or whose connection ends first, comes again.
import mqtt, { type IPublishPacket, type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { acknowledgeAfter } from '../../src/features/mqtt/external/acknowledge-after';
import { startMosquitto, type TestMosquitto } from '../helpers/mosquitto';
import { waitFor } from '../helpers/protocol';

describe('acknowledgeAfter', () => {
  let broker: TestMosquitto;
  const clients: MqttClient[] = [];
  let n = 0;

  beforeAll(async () => {
    broker = await startMosquitto();
    broker.ctrl('createRole', 'everything');
    broker.ctrl('addRoleACL', 'everything', 'publishClientSend', 'test/#', 'allow');
    broker.ctrl('addRoleACL', 'everything', 'subscribePattern', 'test/#', 'allow');
    broker.ctrl('createClient', 'tester', '-p', 'tester-password');
    broker.ctrl('addClientRole', 'tester', 'everything');
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.endAsync(true)));
  });
  afterAll(async () => broker?.stop());

  async function connect(clientId: string, clean = false, onMessage?: (payload: Buffer) => void): Promise<MqttClient> {
    const client = mqtt.connect(broker.url, {
      clientId,
      username: 'tester',
      password: 'tester-password',
      protocolVersion: 5,
      clean,
      properties: clean ? {} : { sessionExpiryInterval: 600 },
      reconnectPeriod: 0,
    });
    clients.push(client);
    // Attached before the CONNACK: what the broker held for the session comes right after it.
    if (onMessage) client.on('message', (_t, payload) => onMessage(payload));
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
    });
    return client;
  }

  /** A subscriber whose handling of each message waits until the test releases it. */
  async function holdingSubscriber(clientId: string, topic: string) {
    const client = await connect(clientId);
    const held: { payload: string; release: () => void; fail: () => void }[] = [];
    expect(
      acknowledgeAfter(client, (packet: IPublishPacket) =>
        new Promise<void>((resolve, reject) => held.push({ payload: packet.payload.toString(), release: resolve, fail: () => reject(new Error('not stored')) })),
      ),
    ).toBe(true);
    await client.subscribeAsync(topic, { qos: 1 });
    return { client, held };
  }

  /** Everything the broker still holds for a session: a plain subscriber on the same session takes it. */
  async function redelivered(clientId: string, expected: number): Promise<string[]> {
    const got: string[] = [];
    await connect(clientId, false, (payload) => got.push(payload.toString()));
    if (expected > 0) await waitFor(() => got.length >= expected, 5000);
    else await new Promise((r) => setTimeout(r, 500));
    return got.sort();
  }

  async function publish(topic: string, payloads: string[]): Promise<void> {
    const publisher = await connect(`pub-${++n}`, true);
    for (const p of payloads) await publisher.publishAsync(topic, p, { qos: 1 });
  }

  it('takes the next messages while earlier ones are handled, and acknowledges none before it is handled', async () => {
    const { client, held } = await holdingSubscriber('sub-held', 'test/held');
    await publish('test/held', ['a', 'b', 'c', 'd', 'e']);
    // All five are being handled at once: none was acknowledged, yet the next ones came.
    await waitFor(() => held.length === 5);
    // The connection ends before any is handled: the broker still holds all five for the session.
    client.stream.destroy();
    await waitFor(() => !client.connected);
    for (const h of held) h.release();
    expect(await redelivered('sub-held', 5)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('acknowledges each message once handled: nothing comes again', async () => {
    const { client, held } = await holdingSubscriber('sub-done', 'test/done');
    await publish('test/done', ['1', '2', '3']);
    await waitFor(() => held.length === 3);
    for (const h of held) h.release();
    await new Promise((r) => setTimeout(r, 300));
    await client.endAsync();
    expect(await redelivered('sub-done', 0)).toEqual([]);
  });

  it('a message whose handling fails is not acknowledged: the connection closes and the message comes again', async () => {
    const { client, held } = await holdingSubscriber('sub-fail', 'test/fail');
    await publish('test/fail', ['ok', 'broken']);
    await waitFor(() => held.length === 2);
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    held.find((h) => h.payload === 'ok')!.release();
    await new Promise((r) => setTimeout(r, 200));
    held.find((h) => h.payload === 'broken')!.fail();
    await closed;
    expect(await redelivered('sub-fail', 1)).toEqual(['broken']);
  });
});
