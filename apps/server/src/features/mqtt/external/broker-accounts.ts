import type { FastifyBaseLogger } from 'fastify';
import { topics } from '@agua/shared';
import type { DeviceRecord } from '../../devices/devices.repository';
import type { DeviceAccess } from '../../devices/device-admin.service';
import { SealedKeyUnreadableError, type BrokerCredentials, type PendingCredential } from './broker-credentials';
import type { BrokerClient, DynamicSecurity, DynsecCommand } from './dynsec';

/** Each device's role on the broker: `agua-device-{id}`. */
export const DEVICE_ROLE_PREFIX = 'agua-device-';
/** The role the server gives its own administrative client: what it publishes and subscribes to. */
export const SERVER_ROLE = 'agua-server';
/** Marks the broker clients this server manages; the utility's other clients are never touched. */
export const MANAGED_MARK = 'Panel de Control de Agua: dispositivo';
/** How long an administrator's change waits for the broker before the API answers anyway (it is retried until it succeeds). */
const CHANGE_WAIT_MS = 5_000;
const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 30_000;
/**
 * A pending key that is not the device's is one whose rotation failed after it was written; it is
 * dropped once older than this (younger, its rotation may still be on its way to the database).
 */
const STALE_KEY_MS = 60_000;

export const deviceRole = (deviceId: string) => `${DEVICE_ROLE_PREFIX}${deviceId}`;

/** docs/protocol.md "MQTT": a device publishes only its telemetry, command acks and status, and subscribes under its own prefix. */
export function deviceAcls(deviceId: string) {
  return [
    { acltype: 'publishClientSend', topic: topics.telemetry(deviceId), allow: true },
    { acltype: 'publishClientSend', topic: topics.commandAck(deviceId), allow: true },
    { acltype: 'publishClientSend', topic: topics.status(deviceId), allow: true },
    { acltype: 'subscribePattern', topic: `agua/v1/${deviceId}/#`, allow: true },
  ];
}

/** What the server itself needs: shared subscriptions for ingest, statuses, and publishing commands and refusals. */
export const SERVER_ACLS = [
  { acltype: 'subscribePattern', topic: '$share/agua/agua/v1/#', allow: true },
  { acltype: 'subscribePattern', topic: 'agua/v1/#', allow: true },
  { acltype: 'publishClientReceive', topic: 'agua/v1/#', allow: true },
  { acltype: 'publishClientSend', topic: 'agua/v1/+/commands', allow: true },
  { acltype: 'publishClientSend', topic: 'agua/v1/+/errors', allow: true },
  { acltype: 'publishClientSend', topic: 'agua/v1/+/status', allow: true },
];

export interface ReconcileReport {
  created: string[];
  updated: string[];
  deleted: string[];
  /** Devices the broker has no client for and whose key this server does not hold (rotate the key). */
  withoutKey: string[];
  /** Broker clients named like a device but not made by this server: left alone. */
  conflicts: string[];
  /** Devices whose key waiting for the broker cannot be opened (another DEVICE_KEY_PEPPER): rotate their key. */
  unreadableKey: string[];
}

export interface BrokerAccountsDeps {
  /** The plugin's client while the administrative connection is up, else null. */
  dynsec: () => DynamicSecurity | null;
  devices: { get(id: string): DeviceRecord | undefined; listRecords(): DeviceRecord[] };
  credentials: BrokerCredentials;
  /** Whether a key is the device's current one (its hash matches). */
  keyMatches: (device: DeviceRecord, key: string) => boolean;
  /** A key anyone may know for this device (a demo device's); it is used only when it matches. */
  publicKey: (deviceId: string) => string;
  /** The administrative client's user name (MQTT_URL). */
  serverUsername: string;
  log: FastifyBaseLogger;
}

type SyncOutcome = 'unchanged' | 'created' | 'updated' | 'deleted' | 'without-key' | 'conflict' | 'unreadable-key';

/**
 * Keeps the external broker's device accounts (Mosquitto's dynamic security plugin) in step with
 * the devices here: one client per device (user = device id, password = its key, client id fixed)
 * with its own role. Every administrator's change marks the device for a sync, retried until the
 * broker takes it; every (re)connection reconciles all of them. The broker kicks a session whose
 * client is disabled, deleted or given a new password, so a revoked device is cut off at once.
 */
export class BrokerAccounts implements DeviceAccess {
  /** Devices waiting for a sync, with whoever waits for it. */
  private readonly dirty = new Map<string, ((synced: boolean) => void)[]>();
  private draining = false;
  private retryMs = RETRY_MIN_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Set when the server just gave itself its role: the broker closes its connection for that, as expected. */
  reconnectExpected = false;

  constructor(private readonly deps: BrokerAccountsDeps) {}

  /** Before the key's hash is stored: the broker will need the key itself. */
  async keyIssued(deviceId: string, key: string): Promise<void> {
    await this.deps.credentials.put(deviceId, key);
  }

  /** Marks the device for a sync and waits (up to 5 s) until the broker agrees. */
  changed(deviceId: string): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.deps.log.warn({ deviceId }, 'the external broker has not taken a device change yet; retrying until it does');
        resolve();
      }, CHANGE_WAIT_MS);
      timer.unref();
      this.mark(deviceId, () => {
        clearTimeout(timer);
        resolve();
      });
      void this.drain();
    });
  }

  /**
   * Brings every device account in step (at each connection of the administrative client):
   * creates what is missing, updates what differs, deletes the accounts of devices that are gone.
   */
  async reconcile(): Promise<ReconcileReport> {
    const dynsec = this.require();
    await this.ensureServerRole(dynsec);
    const [clients, roles] = await Promise.all([dynsec.listClients(), dynsec.listRoles()]);
    const byName = new Map(clients.map((c) => [c.username, c]));
    const roleNames = new Set(roles.map((r) => r.rolename));
    const report: ReconcileReport = { created: [], updated: [], deleted: [], withoutKey: [], conflicts: [], unreadableKey: [] };
    const live = new Set<string>();
    for (const device of this.deps.devices.listRecords()) {
      if (device.retiredAtMs !== null) continue;
      live.add(device.id);
      const outcome = await this.syncOrRetry(dynsec, device.id, { client: byName.get(device.id) ?? null, roleExists: roleNames.has(deviceRole(device.id)) });
      if (outcome) note(report, device.id, outcome);
    }
    for (const client of clients) {
      if (!live.has(client.username) && isManaged(client)) {
        const outcome = await this.syncOrRetry(dynsec, client.username, { client, roleExists: roleNames.has(deviceRole(client.username)) });
        if (outcome) report.deleted.push(client.username);
      }
    }
    for (const role of roleNames) {
      if (role.startsWith(DEVICE_ROLE_PREFIX) && !live.has(role.slice(DEVICE_ROLE_PREFIX.length))) await ignore(dynsec, { command: 'deleteRole', rolename: role }, 'Role not found');
    }
    for (const deviceId of await this.deps.credentials.deviceIds()) {
      if (!live.has(deviceId)) await this.deps.credentials.drop(deviceId);
    }
    return report;
  }

  /**
   * One device of a reconciliation. What the reconciliation read may be outdated by a change being
   * synced beside it (an administrator's); a failure then leaves that device to the retry queue,
   * which reads the broker afresh, rather than stopping the reconciliation of the others.
   */
  private async syncOrRetry(dynsec: DynamicSecurity, deviceId: string, known: { client: BrokerClient | null; roleExists: boolean }): Promise<SyncOutcome | null> {
    try {
      return await this.sync(dynsec, deviceId, known);
    } catch (err) {
      if (!this.deps.dynsec()) throw err;
      this.deps.log.warn({ err: (err as Error).message, deviceId }, 'external broker: a device account could not be reconciled; retrying it');
      this.mark(deviceId);
      return null;
    }
  }

  /** A connection came up: whatever waited is tried now. */
  resume(): void {
    this.retryMs = RETRY_MIN_MS;
    void this.drain();
  }

  close(): void {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    for (const waiters of this.dirty.values()) for (const w of waiters) w(false);
    this.dirty.clear();
  }

  private mark(deviceId: string, waiter?: (synced: boolean) => void): void {
    const waiters = this.dirty.get(deviceId) ?? [];
    if (waiter) waiters.push(waiter);
    this.dirty.set(deviceId, waiters);
  }

  private async drain(): Promise<void> {
    if (this.draining || this.closed) return;
    this.draining = true;
    try {
      for (;;) {
        const dynsec = this.deps.dynsec();
        const next = this.dirty.entries().next();
        if (!dynsec || next.done) return;
        const [deviceId, waiters] = next.value;
        this.dirty.delete(deviceId);
        try {
          const outcome = await this.sync(dynsec, deviceId);
          if (outcome !== 'unchanged') this.deps.log.info({ deviceId, outcome }, 'external broker: device account in step');
          for (const w of waiters) w(true);
          this.retryMs = RETRY_MIN_MS;
        } catch (err) {
          const later = this.dirty.get(deviceId) ?? [];
          this.dirty.set(deviceId, [...waiters, ...later]);
          this.deps.log.warn({ err, deviceId, retryInMs: this.retryMs }, 'external broker: a device account change failed; retrying');
          this.scheduleRetry();
          return;
        }
      }
    } finally {
      this.draining = false;
    }
  }

  private scheduleRetry(): void {
    if (this.retryTimer || this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.drain();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
  }

  /**
   * Makes one device's account what it should be. `known` is what a reconciliation already read
   * of the broker; without it the client is asked for.
   */
  private async sync(dynsec: DynamicSecurity, deviceId: string, known?: { client: BrokerClient | null; roleExists: boolean }): Promise<SyncOutcome> {
    const device = this.deps.devices.get(deviceId);
    const client = known ? known.client : await getClient(dynsec, deviceId);
    if (client && !isManaged(client)) {
      this.deps.log.warn({ deviceId }, 'external broker: a client with this device id exists but was not made by this server; left alone');
      return 'conflict';
    }
    if (!device || device.retiredAtMs !== null) {
      if (client) await ignore(dynsec, { command: 'deleteClient', username: deviceId }, 'Client not found');
      await ignore(dynsec, { command: 'deleteRole', rolename: deviceRole(deviceId) }, 'Role not found');
      await this.deps.credentials.drop(deviceId);
      return client ? 'deleted' : 'unchanged';
    }
    const role = deviceRole(deviceId);
    if (!known?.roleExists) await ignore(dynsec, { command: 'createRole', rolename: role, textdescription: MANAGED_MARK, acls: deviceAcls(deviceId) }, 'Role already exists');
    const { pending, unreadable } = await this.currentPending(device);
    const publicKey = this.deps.publicKey(deviceId);
    const key = pending?.key ?? (!client && this.deps.keyMatches(device, publicKey) ? publicKey : null);
    if (!client) {
      if (unreadable && !key) return 'unreadable-key';
      if (!key) {
        this.deps.log.warn({ deviceId }, 'external broker: no client for this device and its key is not held here; rotate its key to connect it over MQTT');
        return 'without-key';
      }
      await dynsec.one({ command: 'createClient', username: deviceId, password: key, clientid: deviceId, textname: device.name, textdescription: MANAGED_MARK, roles: [{ rolename: role }] });
      if (!device.enabled) await dynsec.one({ command: 'disableClient', username: deviceId });
      await this.delivered(pending);
      return 'created';
    }
    const commands: DynsecCommand[] = [];
    // The broker kicks the session on each of these: a new password or a disable cuts the device off at once.
    if (pending) commands.push({ command: 'setClientPassword', username: deviceId, password: pending.key });
    if (!client.roles?.some((r) => r.rolename === role)) commands.push({ command: 'addClientRole', username: deviceId, rolename: role });
    if (device.enabled && client.disabled) commands.push({ command: 'enableClient', username: deviceId });
    if (!device.enabled && !client.disabled) commands.push({ command: 'disableClient', username: deviceId });
    for (const command of commands) await dynsec.one(command);
    await this.delivered(pending);
    if (unreadable) return 'unreadable-key';
    return commands.length > 0 ? 'updated' : 'unchanged';
  }

  /**
   * The key waiting for the broker, if it is the device's current one. A sealed key that cannot be
   * opened is reported (the rest of the account, its enabled state above all, is still brought in
   * step) and kept, in case the pepper it was sealed under comes back; a retry would not mend it.
   */
  private async currentPending(device: DeviceRecord): Promise<{ pending: PendingCredential | null; unreadable: boolean }> {
    let pending: PendingCredential | null;
    try {
      pending = await this.deps.credentials.get(device.id);
    } catch (err) {
      if (!(err instanceof SealedKeyUnreadableError)) throw err;
      this.deps.log.error({ deviceId: device.id }, 'external broker: the key waiting for this device cannot be opened (was DEVICE_KEY_PEPPER set or changed?); rotate the device key in Dispositivos');
      return { pending: null, unreadable: true };
    }
    if (!pending || this.deps.keyMatches(device, pending.key)) return { pending, unreadable: false };
    if (Date.now() - pending.issuedAtMs > STALE_KEY_MS) await this.deps.credentials.delivered(pending);
    return { pending: null, unreadable: false };
  }

  private async delivered(pending: PendingCredential | null): Promise<void> {
    if (pending) await this.deps.credentials.delivered(pending);
  }

  /** The server's own role, and its administrative client in it (the broker then reconnects it once). */
  private async ensureServerRole(dynsec: DynamicSecurity): Promise<void> {
    await ignore(dynsec, { command: 'createRole', rolename: SERVER_ROLE, textdescription: 'Panel de Control de Agua: servidor', acls: SERVER_ACLS }, 'Role already exists');
    const self = await getClient(dynsec, this.deps.serverUsername);
    if (self && !self.roles?.some((r) => r.rolename === SERVER_ROLE)) {
      this.deps.log.info('external broker: giving the server its role; the broker reconnects the administrative client once');
      this.reconnectExpected = true;
      await dynsec.one({ command: 'addClientRole', username: this.deps.serverUsername, rolename: SERVER_ROLE, priority: 10 });
    }
  }

  private require(): DynamicSecurity {
    const dynsec = this.deps.dynsec();
    if (!dynsec) throw new Error('not connected to the external broker');
    return dynsec;
  }
}

function isManaged(client: BrokerClient): boolean {
  return client.textdescription === MANAGED_MARK || (client.roles ?? []).some((r) => r.rolename === deviceRole(client.username));
}

async function getClient(dynsec: DynamicSecurity, username: string): Promise<BrokerClient | null> {
  const [response] = await dynsec.run([{ command: 'getClient', username }]);
  if (response!.error === 'Client not found') return null;
  if (response!.error) throw new Error(`getClient: ${response!.error}`);
  return (response!.data as { client?: BrokerClient } | undefined)?.client ?? null;
}

/** Runs a command whose given failure means "already so". */
async function ignore(dynsec: DynamicSecurity, command: DynsecCommand, alreadySo: string): Promise<void> {
  const [response] = await dynsec.run([command]);
  if (response!.error && response!.error !== alreadySo) throw new Error(`${command.command}: ${response!.error}`);
}

function note(report: ReconcileReport, deviceId: string, outcome: SyncOutcome): void {
  if (outcome === 'created') report.created.push(deviceId);
  else if (outcome === 'updated') report.updated.push(deviceId);
  else if (outcome === 'deleted') report.deleted.push(deviceId);
  else if (outcome === 'without-key') report.withoutKey.push(deviceId);
  else if (outcome === 'conflict') report.conflicts.push(deviceId);
  else if (outcome === 'unreadable-key') report.unreadableKey.push(deviceId);
}
