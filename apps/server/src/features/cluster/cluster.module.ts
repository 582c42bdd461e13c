import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/env';
import type { BackgroundJobs } from '../../lib/background-jobs';
import { unauthorized } from '../../lib/errors';
import { EventBus } from '../../lib/event-bus';
import { SOLO, type Placement } from '../../lib/placement';
import type { SettingsRepository } from '../../storage/settings.repository';
import type { AlarmAct, AlarmEngine, AlarmRouter } from '../alarms/alarm-engine';
import { toAlarm } from '../alarms/alarms.repository';
import type { AlarmRulesService } from '../alarms/alarm-rules.service';
import type { CommandRouter, CommandsService, RemoteApproval, RemoteIssue } from '../commands/commands.service';
import type { DevicesService } from '../devices/devices.service';
import type { MqttTransport } from '../mqtt/mqtt-transport';
import type { UsersRepository } from '../users/users.repository';
import { Cluster, HEARTBEAT_MS } from './cluster';
import { EventBridge } from './event-bridge';
import { Leadership, TRY_EVERY_MS } from './leadership';
import { DeviceOwnership, RENEW_MS } from './ownership';
import { connectRedis } from './redis-link';

/**
 * The features a cluster member connects once they exist: what keeps replicas, what runs a
 * device's work, what answers the other instances. They are built after the member (they need
 * its placement), hence a second step (`wire`) rather than constructor inputs.
 */
export interface ClusterFeatures {
  bus: EventBus;
  devices: DevicesService;
  commands: CommandsService;
  alarmEngine: AlarmEngine;
  alarmRules: AlarmRulesService;
  mqtt: MqttTransport;
  users: UsersRepository;
  /** Alarm changes stored elsewhere may carry notifications to send. */
  alarmChanged(): void;
}

/** This instance as one of several (REDIS_URL): see ADR 013. */
export interface ClusterMember {
  cluster: Cluster;
  leadership: Leadership;
  ownership: DeviceOwnership;
  /** What the live sockets show: this instance's events and the others'. */
  feed: EventBus;
  /** Where a command for a device held by another instance goes (the commands feature's input). */
  commandRouter: CommandRouter;
  /** Where an act on an alarm of a device held by another instance goes (the alarm engine's input). */
  alarmRouter: AlarmRouter;
  /**
   * After a device's record changed here (created, enabled, disabled, new key, retired): waits
   * until every live instance has loaded it again, so that the admin's answer means "in force
   * everywhere" — an old key refused by all, not by the ones that happened to be quick. An
   * instance that does not answer in time is logged and not waited for (it reloads from the
   * broadcast when it can).
   */
  deviceChangedEverywhere(deviceId: string): Promise<void>;
  wire(features: ClusterFeatures): void;
  /**
   * Puts the member's work in the job list: joining (subscriptions, first heartbeat, leases
   * learnt, first leadership try) when the server starts and leaving when it stops, then the
   * heartbeat, the lease renewal and the leadership tries, stopped before leaving.
   */
  addJobs(jobs: BackgroundJobs): void;
}

export interface ClusterDeps {
  config: Config;
  settings: SettingsRepository;
  log: FastifyBaseLogger;
}

/** Who this server is, and whether it is one of several. */
export interface ClusterModule {
  /** Names this server in logs, metrics and its broker sessions. */
  instanceId: string;
  /** This instance as one of several (REDIS_URL); null when it runs alone. */
  member: ClusterMember | null;
  /** Which devices' work runs here: the member's share, or all of them. */
  placement: Placement;
}

/** This server's name, and its membership of the cluster when REDIS_URL (and PostgreSQL) say so. */
export async function createCluster({ config, settings, log }: ClusterDeps): Promise<ClusterModule> {
  // Made once, so a new port or host name keeps it. Instances sharing a database each have
  // their own (host name and port).
  const instanceId =
    config.redisUrl !== null
      ? clusterInstanceId(config)
      : (config.instanceId ?? (await settings.getOrCreate('instance_id', () => `${hostLabel()}-${randomBytes(3).toString('hex')}`)));
  const member = config.redisUrl !== null && config.databaseUrl !== null ? await joinCluster({ ...config, redisUrl: config.redisUrl, databaseUrl: config.databaseUrl }, instanceId, log) : null;
  if (!member && config.databaseUrl !== null) {
    log.info('no REDIS_URL: this instance runs alone on this PostgreSQL database (another one is refused; several need REDIS_URL on every one)');
  }
  return { instanceId, member, placement: member?.ownership ?? SOLO };
}

/**
 * A name for this instance among the others: INSTANCE_ID, else host name and port (docs/operations.md).
 * The name stored in the database would be every instance's, since they share it.
 */
export function clusterInstanceId(config: Config): string {
  if (config.instanceId) return config.instanceId;
  return `${hostLabel()}-${config.port === 0 ? process.pid : config.port}`;
}

/** The host name as a part of an instance name (letters, digits, `.`, `_`, `-`; at most 40). */
export function hostLabel(): string {
  return hostname().replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 40) || 'agua';
}

/** Connects to Redis (waiting up to 60 s at start) and makes this instance a member of the cluster. */
export async function joinCluster(config: Config & { redisUrl: string; databaseUrl: string }, instanceId: string, log: FastifyBaseLogger): Promise<ClusterMember> {
  const link = await connectRedis(config.redisUrl, log, { instanceId });
  const cluster = new Cluster(link, instanceId, log);
  const leadership = new Leadership(config.databaseUrl, log);
  const ownership = new DeviceOwnership(cluster, link.commands, () => leadership.isLeader(), log);
  const feed = new EventBus();
  // The instance that left may have been the leader: it released its lock before saying so, so
  // try at once (and once more shortly, should PostgreSQL not have seen the release yet).
  cluster.onPeerLeft(() => {
    leadership.tryNow();
    setTimeout(() => leadership.tryNow(), 500).unref();
  });
  let bridge: EventBridge | null = null;
  log.info({ redis: link.describe, instance: instanceId }, 'several instances: joined through Redis');
  return {
    cluster,
    leadership,
    ownership,
    feed,
    commandRouter: {
      holderOf: (deviceId) => ownership.holderOf(deviceId),
      issueOn: (instance, request) => cluster.call(instance, 'command.issue', request),
      approveOn: (instance, request) => cluster.call(instance, 'command.approve', request),
    },
    alarmRouter: {
      holderOf: (deviceId) => ownership.holderOf(deviceId),
      actOn: (instance, act) => cluster.call(instance, 'alarm.act', act),
    },
    deviceChangedEverywhere: async (deviceId) => {
      const results = await Promise.allSettled(cluster.alivePeers().map((peer) => cluster.call(peer, 'device.reload', { deviceId })));
      const failed = results.filter((r) => r.status === 'rejected').length;
      if (failed > 0) log.warn({ deviceId, failed }, 'some instances did not confirm a device change in time; they load it from the broadcast');
    },
    wire: (f) => {
      ownership.useHooks({
        adopted: (deviceId) => {
          f.commands.adopt(deviceId).catch((err: unknown) => log.error({ err, deviceId }, 'loading the command in flight of a device taken over failed'));
          f.alarmEngine.adoptDevice(deviceId).catch(() => undefined);
        },
        released: (deviceId) => {
          f.mqtt.release(deviceId);
          f.commands.release(deviceId);
        },
      });
      cluster.serve('alarm.act', async (args) => toAlarm(await f.alarmEngine.act(args as AlarmAct, true)));
      cluster.serve('device.reload', async (args) => {
        const { deviceId } = args as { deviceId: string };
        await f.devices.reloadRecord(deviceId);
        const device = f.devices.get(deviceId);
        if (device) await f.alarmRules.reloadDevice(deviceId, device.type);
        return null;
      });
      cluster.serve('command.issue', async (args) => {
        const request = args as RemoteIssue;
        const user = await f.users.findById(request.userId);
        if (!user) throw unauthorized();
        return f.commands.issue(user, request.deviceId, request, request.ip, true);
      });
      cluster.serve('command.approve', async (args) => {
        const request = args as RemoteApproval;
        const user = await f.users.findById(request.userId);
        if (!user) throw unauthorized();
        return f.commands.approve(user, request.commandId, request.comment, request.ip, true);
      });
      const replicas = {
        devices: f.devices,
        alarms: f.alarmEngine,
        rules: f.alarmRules,
        alarmChanged: f.alarmChanged,
        heardOf: (deviceId: string, instance: string) => ownership.heardOf(deviceId, instance),
      };
      bridge = new EventBridge(cluster, f.bus, feed, replicas, log);
    },
    addJobs(jobs) {
      jobs
        .add({
          name: 'cluster (Redis, leadership, device leases)',
          start: async () => {
            bridge?.start();
            await cluster.start();
            await ownership.start();
            await leadership.start();
          },
          stop: async () => {
            bridge?.stop();
            await leadership.stop();
            await cluster.close();
          },
        })
        .every('cluster heartbeat', HEARTBEAT_MS, () => cluster.beat())
        .every('device lease renewal', RENEW_MS, () => ownership.renew())
        .every('leadership tries', TRY_EVERY_MS, () => leadership.tryOnce());
    },
  };
}
