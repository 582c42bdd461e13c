import { MAX_BATCH_MESSAGES, topics, type CommandAck, type TelemetryMessage } from '@agua/shared';
import mqtt, { type MqttClient } from 'mqtt';
import { parseCommand } from './device-core';
import { DEFAULT_BUFFER_CAP, ErrorLatch, type Transport, type TransportOptions } from './transport';

export interface MqttTransportOptions extends TransportOptions {
  /** Broker URL, e.g. mqtt://127.0.0.1:1883. */
  mqttUrl: string;
  /** Pause between reconnection attempts (default 3 s). */
  reconnectPeriodMs?: number;
}

/**
 * The MQTT side of docs/protocol.md with mqtt.js, set up like ESP-IDF's client:
 * - client id = username = deviceId, password = key, MQTT 3.1.1;
 * - clean session: the server re-publishes an unacknowledged command every 5 s until it times out,
 *   so a persistent session would add nothing but stale deliveries and broker state per device.
 *   We subscribe again on every CONNACK instead;
 * - last will `offline` (retained, QoS 1) on the status topic, `online` published after connecting;
 * - telemetry at QoS 1, one publish in flight at a time; readings made while disconnected (or while
 *   waiting for a slow PUBACK, which is how the server rate-limits) wait in a bounded buffer and go
 *   out as one array.
 */
export class MqttTransport implements Transport {
  private readonly opts: MqttTransportOptions;
  private readonly cap: number;
  private readonly latch: ErrorLatch;
  private client: MqttClient | undefined;
  private buffer: TelemetryMessage[] = [];
  private inFlight: TelemetryMessage[] | undefined;
  private running = false;

  constructor(options: MqttTransportOptions) {
    this.opts = options;
    this.cap = options.bufferCap ?? DEFAULT_BUFFER_CAP;
    this.latch = new ErrorLatch(options.logger);
  }

  get buffered(): number {
    return this.buffer.length + (this.inFlight?.length ?? 0);
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.connect();
  }

  async stop(): Promise<void> {
    this.running = false;
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    // A device switched off on purpose says so; the will only covers a connection that just dies.
    if (client.connected) {
      await withTimeout(client.publishAsync(topics.status(this.opts.deviceId), 'offline', { qos: 1, retain: true }), 2000);
    }
    const ended = await withTimeout(client.endAsync(), 2000);
    if (!ended) await client.endAsync(true);
  }

  /** A reboot: the connection drops without DISCONNECT (so the broker fires the will), then a new one. */
  async reconnect(): Promise<void> {
    if (!this.running) return;
    const old = this.client;
    this.client = undefined;
    this.requeueInFlight();
    if (old) await withTimeout(old.endAsync(true), 2000);
    if (this.running) this.connect();
  }

  send(message: TelemetryMessage): void {
    this.buffer.push(message);
    const excess = this.buffer.length - this.cap;
    if (excess > 0) {
      this.buffer.splice(0, excess);
      this.opts.stats.dropped += excess;
    }
    this.flush();
  }

  async ack(commandId: string, ack: CommandAck): Promise<void> {
    const client = this.client;
    if (!client) return;
    try {
      // QoS 1 and mqtt.js keep it across a reconnect; the PUBACK resolves this.
      await client.publishAsync(topics.commandAck(this.opts.deviceId), JSON.stringify(mqttAckBody(commandId, ack)), { qos: 1 });
      this.opts.stats.acks++;
    } catch (err) {
      if (!this.running) return;
      this.opts.stats.errors++;
      this.opts.logger.warn(`${this.opts.deviceId}: ack of ${commandId} failed: ${(err as Error).message}`);
    }
  }

  private connect(): void {
    const { deviceId, key, logger } = this.opts;
    const client = mqtt.connect(this.opts.mqttUrl, {
      clientId: deviceId,
      username: deviceId,
      password: key,
      protocolVersion: 4,
      clean: true,
      resubscribe: false, // we subscribe on every connect ourselves
      reconnectPeriod: this.opts.reconnectPeriodMs ?? 3000,
      // A firmware retries after "not authorized" too: the device may be enabled again.
      reconnectOnConnackError: true,
      connectTimeout: 10_000,
      keepalive: 30,
      will: { topic: topics.status(deviceId), payload: Buffer.from('offline'), qos: 1, retain: true },
    });
    this.client = client;

    client.on('connect', () => {
      if (this.client !== client) return;
      this.latch.ok(`${deviceId}: MQTT connected`);
      logger.debug?.(`${deviceId}: MQTT connected`);
      client.publish(topics.status(deviceId), 'online', { qos: 1, retain: true });
      client.subscribe({ [topics.commands(deviceId)]: { qos: 1 }, [topics.errors(deviceId)]: { qos: 1 } }, (err, granted) => {
        if (err) return this.latch.fail(`${deviceId}: subscribe failed: ${err.message}`);
        for (const g of granted ?? []) {
          if (g.qos === 128) this.latch.fail(`${deviceId}: subscription to ${g.topic} refused`);
        }
      });
      this.flush();
    });
    client.on('message', (topic, payload) => this.onMessage(topic, payload));
    client.on('error', (err) => {
      this.opts.stats.errors++;
      this.latch.fail(`${deviceId}: MQTT ${err.message}`);
    });
  }

  private onMessage(topic: string, payload: Buffer): void {
    const { deviceId, logger, stats } = this.opts;
    let body: unknown;
    try {
      body = JSON.parse(payload.toString('utf8'));
    } catch {
      logger.warn(`${deviceId}: non-JSON payload on ${topic}`);
      return;
    }
    if (topic === topics.errors(deviceId)) {
      // The server PUBACKs refused telemetry (3.1.1 has no negative PUBACK) and explains here.
      stats.errors++;
      const e = body as { code?: unknown; error?: unknown };
      this.latch.fail(`${deviceId}: server refused telemetry: ${String(e.code)} ${String(e.error)}`);
      return;
    }
    if (topic !== topics.commands(deviceId)) return;
    for (const raw of Array.isArray(body) ? body : [body]) {
      const command = parseCommand(raw);
      if (!command) {
        logger.warn(`${deviceId}: ignoring malformed command ${JSON.stringify(raw)}`);
        continue;
      }
      stats.commands++;
      try {
        this.opts.onCommand(command);
      } catch (err) {
        logger.error(`${deviceId}: command ${command.id} crashed: ${(err as Error).message}`);
      }
    }
  }

  private flush(): void {
    const client = this.client;
    if (!this.running || !client?.connected || this.inFlight || this.buffer.length === 0) return;
    const batch = this.buffer.splice(0, MAX_BATCH_MESSAGES);
    this.inFlight = batch;
    const payload = JSON.stringify(batch.length === 1 ? batch[0] : batch);
    client.publish(topics.telemetry(this.opts.deviceId), payload, { qos: 1 }, (err) => {
      // A batch taken back by reconnect() belongs to the new connection now.
      if (this.inFlight !== batch) return;
      this.inFlight = undefined;
      if (err) {
        if (!this.running) return;
        this.opts.stats.errors++;
        this.buffer.unshift(...batch);
      } else {
        this.opts.stats.sent += batch.length;
      }
      this.flush();
    });
  }

  private requeueInFlight(): void {
    if (!this.inFlight) return;
    this.buffer.unshift(...this.inFlight);
    this.inFlight = undefined;
  }
}

/**
 * Over HTTP the command id is in the URL; over MQTT it must be in the body. docs/protocol.md only says
 * "the same body as over HTTP", so the id goes under both names a server could reasonably read
 * (`commandId`, and `id` as in the command itself). NOTE: drop one once the contract names it.
 */
export function mqttAckBody(commandId: string, ack: CommandAck): CommandAck & { id: string; commandId: string } {
  return { id: commandId, commandId, ...ack };
}

/** Resolve to true if the promise settles within ms, false otherwise (errors count as settled). */
async function withTimeout(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([p.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
