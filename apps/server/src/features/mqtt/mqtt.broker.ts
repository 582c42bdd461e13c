import net from 'node:net';
import type { Readable } from 'node:stream';
import { Aedes, type AuthenticateError, type Client, type PublishPacket } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import { MAX_BODY_BYTES, TOPIC_PREFIX, topics } from '@agua/shared';
import { ConnectionCap } from '../../lib/connection-cap';
import type { EventBus } from '../../lib/event-bus';
import type { DeviceGateway } from '../gateway/device-gateway';
import { dispatchDeviceMessage } from './device-messages';
import { guardParser } from './frame-limit';
import type { MqttTransport } from './mqtt-transport';
import { capOutgoingQueues, queuedFor, type OutgoingQueues } from './outgoing-cap';

export interface MqttBrokerOptions {
  port: number;
  host: string;
  /** Where a device's messages go: key, rate, storage, commands (the broker only speaks MQTT). */
  gateway: DeviceGateway;
  bus: EventBus;
  log: FastifyBaseLogger;
  /** Open connections one address may hold on the MQTT port (trusted balancers exempt); none when not given. */
  connectionCap?: ConnectionCap;
}

/** Thrown when the embedded broker cannot take its port. */
export class MqttPortError extends Error {}

const NOT_AUTHORIZED = 5;
/**
 * A body over 256 KiB is refused on the errors topic (413, docs/protocol.md); a packet over four times
 * that is not buffered at all: the connection is closed.
 */
const MAX_PACKET_BYTES = 4 * MAX_BODY_BYTES;
/** How long a replaced session waits for its successor to get ready before it counts as gone. */
const HANDOVER_MS = 5_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A retained status is `online` / `offline`: a few bytes, never a store for anything else. */
const MAX_RETAINED_STATUS_BYTES = 16;
/** QoS 1 messages the broker holds for one client: in flight, or waiting for a persistent session. */
export const MAX_QUEUED_PER_CLIENT = 100;

/** Aedes stamps a publish with the id of the client that sent it (and a will with its owner's); the server's own have none. */
type StampedPacket = PublishPacket & { clientId?: string };

/** The part of Aedes' persistence the broker uses itself (Aedes does not type it). */
interface BrokerPersistence extends OutgoingQueues {
  createRetainedStream(pattern: string): Readable;
}

/**
 * The embedded MQTT broker (Aedes) speaking docs/protocol.md, as a transport over the device gateway:
 * devices authenticate with id + key, publish and subscribe only under their own topics, and a
 * QoS 1 PUBACK means stored.
 */
export class MqttBroker implements MqttTransport {
  private readonly aedes: Aedes;
  private readonly server: net.Server;
  /** The open session of each device: a reconnect replaces it. */
  private readonly sessions = new Map<string, Client>();
  /**
   * Devices that authenticated a new session while an old one was open: the old one's end is a
   * handover, not the device going away (no offline flicker in the browsers).
   */
  private readonly handovers = new Map<string, { timer: NodeJS.Timeout; oldGone: boolean }>();
  /** Sessions closed because the device's key or access went away: they may publish nothing more, not even their will. */
  private readonly revoked = new WeakSet<Client>();
  private readonly connections: ConnectionCap;
  private readonly unsubscribe: () => void;

  constructor(private readonly opts: MqttBrokerOptions) {
    this.aedes = new Aedes({ drainTimeout: 30_000, maxClientsIdLength: 64 });
    this.aedes.authenticate = (client, username, password, done) => this.authenticate(client, username, password, done);
    this.aedes.authorizePublish = (client, packet, done) => {
      this.authorizePublish(client, packet).then(() => done(null), (err: Error) => done(err));
    };
    this.aedes.authorizeSubscribe = (client, sub, done) => done(null, this.ownsTopic(client, sub.topic) ? sub : null);
    this.aedes.authorizeForward = (client, packet) => (this.forwards(client, packet) ? packet : null);
    this.aedes.on('clientReady', (client) => this.clientReady(client));
    this.aedes.on('clientDisconnect', (client) => this.clientGone(client));
    this.server = net.createServer((socket) => this.accept(socket));
    this.connections = opts.connectionCap ?? new ConnectionCap(0);
    this.unsubscribe = opts.bus.on('device.revoked', ({ deviceId }) => this.revoke(deviceId));
  }

  /**
   * Hands a connection to the broker, whose parser refuses oversized packets (checked on the
   * buffers it reads, before they are parsed); one address holding too many connections already
   * is cut before it costs more than a descriptor.
   */
  private accept(socket: net.Socket): void {
    if (!this.connections.admit(socket)) {
      socket.destroy();
      return;
    }
    // PUBACKs are tiny: without this, Nagle and delayed ACKs hold each one ~40 ms.
    socket.setNoDelay(true);
    const client = this.aedes.handle(socket);
    guardParser(client, MAX_PACKET_BYTES, (reason) => {
      this.opts.log.warn({ clientId: client.id ?? null, reason }, 'mqtt connection closed: packet too large');
      socket.destroy();
    });
  }

  async start(): Promise<void> {
    const port = await this.listen();
    this.opts.log.info({ port }, 'embedded MQTT broker listening');
  }

  /** Starts listening; a taken port is a clear error naming MQTT_PORT. */
  private async listen(): Promise<number> {
    await this.aedes.listen(); // Aedes 1.x: readies its persistence; nothing is served before.
    capOutgoingQueues(this.persistence(), MAX_QUEUED_PER_CLIENT);
    await new Promise<void>((resolve, reject) => {
      const onError = (err: NodeJS.ErrnoException) => {
        reject(
          err.code === 'EADDRINUSE'
            ? new MqttPortError(`MQTT_PORT ${this.opts.port} is already in use: another MQTT broker runs there. Choose another port, e.g. MQTT_PORT=1884 (0 = any free port).`)
            : err,
        );
      };
      this.server.once('error', onError);
      this.server.listen(this.opts.port, this.opts.host, () => {
        this.server.off('error', onError);
        resolve();
      });
    });
    return this.port();
  }

  brokerConnected(): null {
    return null;
  }

  port(): number {
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : this.opts.port;
  }

  async close(): Promise<void> {
    this.unsubscribe();
    await new Promise<void>((resolve) => this.aedes.close(() => resolve()));
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Publishes a message to a device (commands, refusals). */
  publish(topic: string, payload: unknown, qos: 0 | 1 = 1): Promise<void> {
    return new Promise((resolve, reject) => {
      this.aedes.publish(
        { cmd: 'publish', topic, payload: Buffer.from(JSON.stringify(payload)), qos, retain: false, dup: false },
        (err) => (err ? reject(err) : resolve()),
      );
    });
  }

  /**
   * The device's key was rotated, it was disabled, retired or purged: its session is closed
   * (without its will) and whatever it left retained goes, so nothing it published reaches a
   * later session of that id — a new key, or a new device created under the same id.
   */
  private revoke(deviceId: string): void {
    const session = this.sessions.get(deviceId);
    if (session) {
      this.revoked.add(session);
      session.close();
    }
    this.clearRetained(deviceId).catch((err: unknown) => this.opts.log.error({ err, deviceId }, 'clearing retained mqtt messages failed'));
  }

  release(deviceId: string): void {
    const session = this.sessions.get(deviceId);
    if (!session) return;
    this.revoked.add(session);
    session.close();
  }

  /** Publishes an empty retained message (MQTT's "delete") on every retained topic of the device. */
  private async clearRetained(deviceId: string): Promise<void> {
    await Promise.all(
      (await this.retainedTopics(deviceId)).map(
        (topic) =>
          new Promise<void>((resolve, reject) => {
            this.aedes.publish({ cmd: 'publish', topic, payload: Buffer.alloc(0), qos: 0, retain: true, dup: false }, (err) => (err ? reject(err) : resolve()));
          }),
      ),
    );
  }

  /** Topics holding a retained message under the device's prefix (for checks and tests). */
  async retainedTopics(deviceId: string): Promise<string[]> {
    const retained = (await this.persistence().createRetainedStream(`${TOPIC_PREFIX}${deviceId}/#`).toArray()) as PublishPacket[];
    return retained.map((p) => p.topic);
  }

  /** How many QoS 1 messages the broker holds for a device's session (for checks and tests). */
  async queuedMessages(deviceId: string): Promise<number> {
    return (await queuedFor(this.persistence(), deviceId)).length;
  }

  private persistence(): BrokerPersistence {
    return (this.aedes as unknown as { persistence: BrokerPersistence }).persistence;
  }

  isConnected(deviceId: string): boolean {
    return this.sessions.has(deviceId);
  }

  sessionCount(): number {
    return this.sessions.size;
  }

  private authenticate(
    client: Client,
    username: Readonly<string> | undefined,
    password: Readonly<Buffer> | undefined,
    done: (error: AuthenticateError | null, success: boolean | null) => void,
  ): void {
    const refuse = () => {
      const err = new Error('not authorized') as AuthenticateError;
      err.returnCode = NOT_AUTHORIZED;
      done(err, null);
    };
    if (!username || client.id !== username || !password) return refuse();
    try {
      const device = this.opts.gateway.authenticate(password.toString('utf8'));
      if (device.id !== username) return refuse();
    } catch {
      return refuse();
    }
    if (this.sessions.has(username)) this.expectHandover(username);
    done(null, true);
  }

  private expectHandover(deviceId: string): void {
    clearTimeout(this.handovers.get(deviceId)?.timer);
    const handover = {
      oldGone: false,
      // A new session that never gets ready: the old one's end counts after all.
      timer: setTimeout(() => {
        this.handovers.delete(deviceId);
        if (handover.oldGone && !this.sessions.has(deviceId)) this.opts.gateway.connection(deviceId, -1, 'mqtt');
      }, HANDOVER_MS),
    };
    handover.timer.unref();
    this.handovers.set(deviceId, handover);
  }

  /**
   * Whether a topic (or a subscription's filter) lies under the client's own `agua/v1/{id}/`;
   * wildcards are allowed below that prefix only.
   */
  private ownsTopic(client: Client | null, topic: string): boolean {
    return client !== null && topic.startsWith(`${TOPIC_PREFIX}${client.id}/`);
  }

  private async authorizePublish(client: Client | null, packet: PublishPacket): Promise<void> {
    if (!client) {
      // A stored last will the broker publishes for a session already gone: its owner's rules.
      const owner = (packet as StampedPacket).clientId;
      const refusal = owner ? publishRefusal(owner, packet) : 'a will without an owner';
      if (refusal) throw new Error(refusal);
      return;
    }
    const id = client.id;
    if (this.revoked.has(client)) throw new Error('session revoked');
    const refusal = publishRefusal(id, packet);
    if (refusal) {
      // Aedes closes the connection on this error (docs/protocol.md: a publish anywhere else closes it).
      this.opts.log.warn({ deviceId: id, topic: packet.topic, retain: packet.retain }, `mqtt publish refused, connection closed: ${refusal}`);
      throw new Error(refusal);
    }
    const { gateway } = this.opts;
    gateway.heard(id);
    // Every publish counts against the rate, whatever it holds. Over it nothing is dropped: the
    // PUBACK waits, which slows the device down.
    for (let wait = gateway.rateWait(id); wait > 0; wait = gateway.rateWait(id)) await sleep(wait);
    // Aedes closes the connection without a PUBACK when this throws, so the device sends the message again.
    await dispatchDeviceMessage(gateway, packet.topic, packet.payload as Buffer, {
      publish: (topic, payload, qos) => this.publish(topic, payload, qos),
      log: this.opts.log,
    });
  }

  /**
   * A device receives only what the server publishes for it — its commands and errors — and, when
   * it subscribes, its own retained status (the will it left: it went away abruptly). Never another
   * client's publishes, nor the echo of its own.
   */
  private forwards(client: Client, packet: StampedPacket): boolean {
    const id = client.id;
    if (packet.topic === topics.status(id)) return packet.retain;
    const fromServer = packet.clientId === undefined;
    return fromServer && (packet.topic === topics.commands(id) || packet.topic === topics.errors(id));
  }

  private clientReady(client: Client): void {
    const previous = this.sessions.get(client.id);
    const handover = this.handovers.get(client.id);
    if (handover) {
      clearTimeout(handover.timer);
      this.handovers.delete(client.id);
    }
    this.sessions.set(client.id, client);
    if (!previous && !handover?.oldGone) this.opts.gateway.connection(client.id, 1, 'mqtt');
  }

  private clientGone(client: Client): void {
    if (this.sessions.get(client.id) !== client) return;
    this.sessions.delete(client.id);
    const handover = this.handovers.get(client.id);
    if (handover) handover.oldGone = true;
    else this.opts.gateway.connection(client.id, -1, 'mqtt');
  }
}

/**
 * docs/protocol.md "MQTT": a device publishes only its own telemetry, command acks and status; retain
 * only on its status, and only `online` / `offline`-sized. The reason it may not, or null.
 */
function publishRefusal(deviceId: string, packet: PublishPacket): string | null {
  const { topic } = packet;
  if (topic === topics.status(deviceId)) {
    return packet.retain && Buffer.byteLength(packet.payload) > MAX_RETAINED_STATUS_BYTES ? `retained status over ${MAX_RETAINED_STATUS_BYTES} bytes` : null;
  }
  if (topic !== topics.telemetry(deviceId) && topic !== topics.commandAck(deviceId)) return `publish to ${topic}, not its telemetry, commands/ack or status`;
  return packet.retain ? `retain on ${topic}` : null;
}
