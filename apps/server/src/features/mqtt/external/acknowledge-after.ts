import type { IPublishPacket, MqttClient, Packet } from 'mqtt';

type SendPacket = (packet: Packet, cb?: (err?: Error) => void, ...rest: unknown[]) => void;

/**
 * Makes an mqtt.js session acknowledge each QoS 1 message only when `handle` has resolved for it,
 * while it goes on reading the next messages: the broker keeps up to its in-flight limit coming,
 * and the group commit gets them together. (mqtt.js by itself handles one message per connection
 * at a time: its PUBACK, and the next message, wait for `handleMessage` to call back.)
 *
 * mqtt.js sends the PUBACK through its `_sendPacket` once `handleMessage` calls back; this holds
 * that PUBACK until the message is handled. A PUBACK is never sent on a later connection than its
 * message came on (a message id means nothing there: the broker sends the message again). When
 * `handle` rejects, the message is never acknowledged and the connection is closed, so the broker
 * sends it again. Returns false when this mqtt.js has no such method (the session then handles
 * one message at a time, which is slower and just as safe).
 *
 * Written against mqtt 5.16 (pinned exactly in package.json); `acknowledge-after.test.ts` checks
 * the behaviour against a real broker.
 */
export function acknowledgeAfter(client: MqttClient, handle: (packet: IPublishPacket) => Promise<void>): boolean {
  const internals = client as unknown as { _sendPacket?: SendPacket };
  const send = internals._sendPacket?.bind(client);
  if (typeof send !== 'function') {
    client.handleMessage = (packet, callback) => {
      handle(packet as IPublishPacket).then(
        () => callback(),
        () => client.stream.destroy(),
      );
    };
    return false;
  }
  /** The handling of each message waiting for its PUBACK, by message id, with the connection it came on. */
  const waiting = new Map<number, { handled: Promise<void>; stream: unknown }>();
  client.handleMessage = (packet, callback) => {
    const publish = packet as IPublishPacket;
    const handled = handle(publish);
    if (publish.qos === 1 && publish.messageId !== undefined) {
      waiting.set(publish.messageId, { handled, stream: client.stream });
      // Calling back lets mqtt.js send the PUBACK (held below) and read the next message.
      callback();
    } else {
      // QoS 0 has no PUBACK to hold.
      handled.then(
        () => callback(),
        () => callback(),
      );
    }
  };
  internals._sendPacket = (packet, cb, ...rest) => {
    const held = packet.cmd === 'puback' && packet.messageId !== undefined ? waiting.get(packet.messageId) : undefined;
    if (!held) return send(packet, cb, ...rest);
    waiting.delete(packet.messageId!);
    cb?.();
    held.handled.then(
      () => {
        if (client.stream === held.stream && client.connected) send(packet, undefined, ...rest);
      },
      () => {
        if (client.stream === held.stream) client.stream.destroy();
      },
    );
  };
  client.on('close', () => waiting.clear());
  return true;
}
