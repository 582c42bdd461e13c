import fs from 'node:fs';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import type { FastifyBaseLogger } from 'fastify';
import { topics } from '@agua/shared';
import type { ExternalBrokerConfig } from '../../../config/env';
import { AppError } from '../../../lib/errors';
import type { EventBus } from '../../../lib/event-bus';
import type { DeviceGateway } from '../../gateway/device-gateway';
import { deviceTopic, dispatchDeviceMessage } from '../device-messages';
import type { MqttTransport } from '../mqtt-transport';
import { acknowledgeAfter } from './acknowledge-after';
import type { BrokerAccounts } from './broker-accounts';
import { DYNSEC_RESPONSE_TOPIC, DynamicSecurity } from './dynsec';

/**
 * Sessions of one instance in the shared subscription; each has up to the broker's in-flight limit
 * of messages being stored at once. Fixed on purpose: the broker queues a share of the messages
 * for every session of the group while it is away, so a session name must never fall out of use.
 */
export const INGEST_SESSIONS = 8;
/** The shared-subscription group of every instance (docs/external-broker.md `$share/agua/…`). */
const SHARE = '$share/agua/';
/** A session of an instance that never comes back is dropped by the broker after this (MQTT 5 session expiry). */
const SESSION_EXPIRY_S = 7 * 24 * 3600;
/** How long a start waits for the broker (docs/external-broker.md: waits and retries up to 60 s, then names the variable). */
const START_WAIT_MS = 60_000;
/** Retained statuses arrive right after the SUBACK; after this the snapshot counts as complete. */
const STATUS_SNAPSHOT_MS = 500;

/** What the ingest sessions take: every device's telemetry and command acknowledgements, shared among the sessions of every instance. */
const INGEST_SUBSCRIPTIONS = { [`${SHARE}agua/v1/+/telemetry`]: { qos: 1 as const }, [`${SHARE}agua/v1/+/commands/ack`]: { qos: 1 as const } };
/** A release waits until no message came for this long (what the broker held is delivered at once). */
const RELEASE_QUIET_MS = 1_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** How long a close waits for a session to end cleanly before it is dropped. */
const END_WAIT_MS = 2_000;

/**
 * Ends a session cleanly if it can within END_WAIT_MS, else drops it: mqtt.js's end can wait
 * forever on a session caught between a lost connection and its reconnect, and a shutdown must
 * not. Messages not yet acknowledged to the broker come again to the next session.
 */
function endWithin(client: MqttClient, opts?: Parameters<MqttClient['endAsync']>[1]): Promise<void> {
  const ended = client.endAsync(false, opts).catch(() => undefined);
  return Promise.race([
    ended,
    sleep(END_WAIT_MS).then(() => {
      client.end(true);
    }),
  ]);
}

export interface ExternalBrokerOptions {
  config: ExternalBrokerConfig;
  instanceId: string;
  gateway: DeviceGateway;
  accounts: (dynsec: () => DynamicSecurity | null) => BrokerAccounts;
  bus: EventBus;
  log: FastifyBaseLogger;
}

/** The broker could not be reached within the start's wait. */
export class BrokerUnreachableError extends Error {}

/**
 * The utility's own MQTT broker (Mosquitto 2 with its dynamic security plugin) as the server's
 * MQTT transport (docs/external-broker.md "External broker"). The server connects as an administrative client:
 * it keeps the device accounts in step, learns online/offline from the retained status topics,
 * publishes commands, and takes telemetry and acknowledgements through a shared subscription
 * with persistent sessions, acknowledging each message to the broker only once it is stored.
 */
export class ExternalBroker implements MqttTransport {
  private admin: MqttClient | null = null;
  private dynsec: DynamicSecurity | null = null;
  private adminReady = false;
  private readonly ingest: MqttClient[] = [];
  /** Devices whose status says `online` (their session is open on the broker). */
  private readonly online = new Set<string>();
  /** Devices confirmed by the retained statuses of the current subscription. */
  private snapshot: Set<string> | null = null;
  readonly accounts: BrokerAccounts;
  private readonly unsubscribe: () => void;
  private closing = false;
  /** Messages being handled, and when the last one came (a release waits for quiet). */
  private inFlight = 0;
  private lastMessageMs = 0;
  private reconciled!: () => void;
  /** Settles with the first reconciliation that finishes (the start waits for it, up to a limit). */
  private readonly firstReconcile = new Promise<void>((resolve) => (this.reconciled = resolve));

  constructor(private readonly opts: ExternalBrokerOptions) {
    this.accounts = opts.accounts(() => (this.adminReady ? this.dynsec : null));
    this.unsubscribe = opts.bus.on('device.revoked', ({ deviceId }) => this.revoke(deviceId));
  }

  async start(): Promise<void> {
    const { log, config, instanceId } = this.opts;
    this.admin = mqtt.connect(config.url, this.clientOptions(`agua-${instanceId}-admin`, true));
    this.dynsec = new DynamicSecurity(this.admin);
    this.admin.on('connect', () => void this.adminConnected());
    this.admin.on('close', () => this.adminLost());
    this.admin.on('message', (topic, payload) => this.adminMessage(topic, payload));
    this.admin.on('error', (err) => log.warn({ err: err.message }, 'external broker: administrative connection error'));
    await this.firstConnect(this.admin);
    const reconciled = await Promise.race([this.firstReconcile.then(() => true), sleep(START_WAIT_MS / 2).then(() => false)]);
    if (!reconciled) log.warn('external broker: the device accounts are not reconciled yet (is the MQTT_URL user an administrator of the dynamic security plugin?); retrying on every connection');
    for (let i = 0; i < INGEST_SESSIONS; i++) this.ingest.push(this.ingestSession(i));
    await Promise.all(this.ingest.map((c) => this.firstConnect(c)));
    log.info({ broker: config.url, instanceId, sessions: INGEST_SESSIONS }, 'connected to the external MQTT broker');
  }

  port(): null {
    return null;
  }

  brokerConnected(): boolean {
    return this.admin?.connected === true && this.ingest.some((c) => c.connected);
  }

  /** The device's one session is with the broker, shared by every instance: nothing to close. */
  release(): void {
    // nothing held here
  }

  isConnected(deviceId: string): boolean {
    return this.online.has(deviceId);
  }

  sessionCount(): number {
    return this.online.size;
  }

  publish(topic: string, payload: unknown, qos: 0 | 1 = 1): Promise<void> {
    const admin = this.admin;
    if (!admin) return Promise.reject(new Error('not connected to the external broker'));
    return new Promise((resolve, reject) => {
      admin.publish(topic, JSON.stringify(payload), { qos, retain: false }, (err) => (err ? reject(err) : resolve()));
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    this.unsubscribe();
    this.accounts.close();
    if (this.opts.config.releaseSessions) await this.releaseSessions();
    // Messages being stored are acknowledged after their commit, or come again to the next session.
    await Promise.all([...this.ingest, ...(this.admin ? [this.admin] : [])].map((c) => endWithin(c)));
  }

  /**
   * Leaves the shared subscription, stores what the broker still holds for these sessions, and
   * ends them for good (session expiry 0), so no share of later messages waits for an instance
   * that is not coming back.
   */
  private async releaseSessions(): Promise<void> {
    const filters = Object.keys(INGEST_SUBSCRIPTIONS);
    await Promise.all(this.ingest.map((c) => c.unsubscribeAsync(filters).catch(() => undefined)));
    while (this.inFlight > 0 || Date.now() - this.lastMessageMs < RELEASE_QUIET_MS) await sleep(50);
    await Promise.all(this.ingest.map((c) => endWithin(c, { properties: { sessionExpiryInterval: 0 } })));
    this.opts.log.info({ sessions: this.ingest.length }, 'external broker: this instance left the shared subscription and ended its sessions');
  }

  private clientOptions(clientId: string, clean: boolean): IClientOptions {
    const { config } = this.opts;
    return {
      clientId,
      username: config.username,
      password: config.password,
      protocolVersion: 5,
      clean,
      ...(clean ? {} : { properties: { sessionExpiryInterval: SESSION_EXPIRY_S } }),
      reconnectPeriod: 1_000,
      connectTimeout: 10_000,
      keepalive: 30,
      resubscribe: false,
      queueQoSZero: false,
      ...(config.caFile ? { ca: fs.readFileSync(config.caFile) } : {}),
    };
  }

  /** Resolves on the first CONNACK; after 60 s without one the start stops, naming MQTT_URL. */
  private firstConnect(client: MqttClient): Promise<void> {
    return new Promise((resolve, reject) => {
      if (client.connected) return resolve();
      let lastError = '';
      const onError = (err: Error) => (lastError = err.message);
      const timer = setTimeout(() => {
        client.off('error', onError);
        void client.endAsync(true);
        reject(new BrokerUnreachableError(`MQTT_URL: the external broker ${this.opts.config.url} did not accept the server within ${START_WAIT_MS / 1000} s${lastError ? ` (${lastError})` : ''}. Check the address, the user and password, and that the broker runs.`));
      }, START_WAIT_MS);
      client.on('error', onError);
      client.once('connect', () => {
        clearTimeout(timer);
        client.off('error', onError);
        resolve();
      });
    });
  }

  private async adminConnected(): Promise<void> {
    const admin = this.admin!;
    noDelay(admin);
    this.adminReady = true;
    this.snapshot = new Set();
    try {
      await admin.subscribeAsync({ [DYNSEC_RESPONSE_TOPIC]: { qos: 0 }, 'agua/v1/+/status': { qos: 1 } });
      setTimeout(() => this.endSnapshot(), STATUS_SNAPSHOT_MS).unref();
      const report = await this.accounts.reconcile();
      this.opts.log.info(
        { ...report },
        `external broker reconciled: ${report.created.length} created, ${report.updated.length} updated, ${report.deleted.length} deleted, ${report.withoutKey.length} without a key here, ${report.conflicts.length} left alone, ${report.unreadableKey.length} with a key that cannot be opened`,
      );
      this.accounts.resume();
      this.reconciled();
    } catch (err) {
      // The connection dropped (the broker reconnects a client it just gave a role), or the
      // user is not an administrator of the plugin: the next connection tries again.
      if (this.accounts.reconnectExpected) this.accounts.reconnectExpected = false;
      else if (!this.closing) this.opts.log.warn({ err: (err as Error).message }, 'external broker: reconciliation did not finish; it runs again on the next connection');
    }
  }

  private adminLost(): void {
    this.adminReady = false;
    this.dynsec?.failAll('the connection to the external broker closed');
  }

  private adminMessage(topic: string, payload: Buffer): void {
    if (topic === DYNSEC_RESPONSE_TOPIC) return this.dynsec?.onResponse(payload);
    const target = deviceTopic(topic);
    if (target?.kind === 'status') this.status(target.deviceId, payload.toString('utf8').trim());
  }

  /**
   * docs/protocol.md: online from the device's `online`, offline from its last will or the `offline`
   * it publishes before a clean disconnect (an emptied retained status counts as offline).
   */
  private status(deviceId: string, value: string): void {
    const device = this.opts.gateway.knownDevice(deviceId);
    if (!device) return;
    if (value === 'online') {
      this.snapshot?.add(deviceId);
      if (this.online.has(deviceId)) return;
      this.online.add(deviceId);
      this.opts.gateway.connection(deviceId, 1, 'mqtt');
    } else if (this.online.delete(deviceId)) {
      this.opts.gateway.connection(deviceId, -1, 'mqtt');
    }
  }

  /** Devices held online whose retained status no longer says so (changed while the server was not listening). */
  private endSnapshot(): void {
    const confirmed = this.snapshot;
    this.snapshot = null;
    if (!confirmed) return;
    for (const deviceId of [...this.online]) {
      if (!confirmed.has(deviceId)) this.status(deviceId, 'offline');
    }
  }

  private ingestSession(index: number): MqttClient {
    const client = mqtt.connect(this.opts.config.url, this.clientOptions(`agua-${this.opts.instanceId}-ingest-${index}`, false));
    client.on('connect', () => {
      noDelay(client);
      client.subscribe(INGEST_SUBSCRIPTIONS, (err) => {
        if (err) this.opts.log.error({ err: err.message }, 'external broker: subscribing the ingest session failed');
      });
    });
    client.on('error', (err) => this.opts.log.warn({ err: err.message, session: index }, 'external broker: ingest session error'));
    // The PUBACK to the broker goes only once the message is stored; meanwhile the next ones come.
    const pipelined = acknowledgeAfter(client, async (packet) => {
      this.inFlight++;
      this.lastMessageMs = Date.now();
      try {
        await this.deviceMessage(packet.topic, packet.payload as Buffer);
      } finally {
        this.inFlight--;
      }
    });
    if (!pipelined && index === 0) this.opts.log.warn('external broker: this mqtt.js cannot hold acknowledgements; each session takes one message at a time');
    return client;
  }

  private deviceMessage(topic: string, payload: Buffer): Promise<void> {
    const target = deviceTopic(topic);
    if (target && target.kind !== 'status') this.opts.gateway.heard(target.deviceId);
    return dispatchDeviceMessage(this.opts.gateway, topic, payload, {
      publish: (t, p, qos) => this.publish(t, p, qos),
      log: this.opts.log,
      // The broker acknowledged the device already, so a delayed acknowledgement would not slow
      // it down, only hold up every device behind it in this session: over the rate is refused.
      admit: (deviceId) => {
        const waitMs = this.opts.gateway.rateWait(deviceId);
        if (waitMs > 0) throw new AppError(429, 'RATE_LIMITED', { retryAfterS: Math.ceil(waitMs / 1000) });
      },
    });
  }

  /**
   * The device's key was rotated, it was disabled, retired or purged: the broker kicks its
   * session (the account change does that) without its will, so its status is ended here and
   * emptied on the broker, for no later session to inherit.
   */
  private revoke(deviceId: string): void {
    if (this.online.delete(deviceId)) this.opts.gateway.connection(deviceId, -1, 'mqtt');
    this.admin?.publish(topics.status(deviceId), '', { qos: 1, retain: true }, (err) => {
      if (err) this.opts.log.warn({ err: err.message, deviceId }, 'external broker: clearing the retained status failed');
    });
  }
}

/** Acknowledgements and commands are tiny: without this, Nagle and delayed ACKs hold each one ~40 ms. */
function noDelay(client: MqttClient): void {
  const socket = client.stream as unknown as { setNoDelay?: (on: boolean) => void; socket?: { setNoDelay?: (on: boolean) => void } };
  (socket.setNoDelay ? socket : socket.socket)?.setNoDelay?.(true);
}
