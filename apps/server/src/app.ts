import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Socket } from 'node:net';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import { topics } from '@agua/shared';
import websocket from '@fastify/websocket';
import type { Config } from './config/env';
import { seedDemo } from './demo/seed';
import { AlarmRulesRepository } from './features/alarms/alarm-rules.repository';
import { AlarmRulesService } from './features/alarms/alarm-rules.service';
import { AlarmEngine } from './features/alarms/alarm-engine';
import alarmsRoutes from './features/alarms/alarms.routes';
import { AlarmsRepository } from './features/alarms/alarms.repository';
import { AlarmsService } from './features/alarms/alarms.service';
import { AuditRepository } from './features/audit/audit.repository';
import auditRoutes from './features/audit/audit.routes';
import { AuditService } from './features/audit/audit.service';
import { LoginFailuresRepository } from './features/auth/login-failures.repository';
import authRoutes from './features/auth/auth.routes';
import { AuthService } from './features/auth/auth.service';
import { SessionsRepository } from './features/auth/sessions.repository';
import { CommandsRepository, toCommand } from './features/commands/commands.repository';
import commandsRoutes from './features/commands/commands.routes';
import { CommandsService } from './features/commands/commands.service';
import { GateTravelWatch } from './features/commands/travel-watch';
import { clusterInstanceId, hostLabel, joinCluster, type ClusterMember } from './features/cluster/cluster.module';
import { SOLO } from './lib/placement';
import { DeviceAdminService } from './features/devices/device-admin.service';
import { DeviceGateway } from './features/gateway/device-gateway';
import deviceRoutes from './features/gateway/device.routes';
import { DeviceRateLimiter } from './features/gateway/rate-limiter';
import { demoDeviceKey, hashDeviceKey } from './features/devices/device-keys';
import { DevicesRepository, type DeviceRecord } from './features/devices/devices.repository';
import { ReadingsRepository } from './features/history/readings.repository';
import historyRoutes from './features/history/history.routes';
import { HistoryService } from './features/history/history.service';
import { ReadingsRetention } from './features/history/retention';
import { PgReadingsReader, SqliteReadingsReader, type ReadingsReader } from './features/history/readings.reader';
import devicesRoutes from './features/devices/devices.routes';
import { DevicesService } from './features/devices/devices.service';
import liveRoutes from './features/live/live.routes';
import { createNotifications, type Notifications } from './features/notifications/notifications.module';
import notificationsRoutes from './features/notifications/notifications.routes';
import { Metrics } from './features/metrics/metrics';
import metricsRoutes, { MetricsServer } from './features/metrics/metrics.routes';
import { BrokerAccounts } from './features/mqtt/external/broker-accounts';
import { BrokerCredentials } from './features/mqtt/external/broker-credentials';
import { ExternalBroker } from './features/mqtt/external/external-broker';
import { MqttBroker } from './features/mqtt/mqtt.broker';
import type { MqttTransport } from './features/mqtt/mqtt-transport';
import systemRoutes from './features/system/system.routes';
import { PostgresStore } from './features/telemetry/postgres-store';
import { ReadingsWriterThread } from './features/telemetry/readings-writer.thread';
import type { StoreWriter } from './features/telemetry/store-writer';
import { TelemetryService } from './features/telemetry/telemetry.service';
import { UsersRepository } from './features/users/users.repository';
import usersRoutes from './features/users/users.routes';
import { UsersService } from './features/users/users.service';
import { BackgroundJobs } from './lib/background-jobs';
import { connectionCapFor } from './lib/connection-cap';
import { EventBus } from './lib/event-bus';
import accessPlugin from './plugins/access';
import csrfPlugin from './plugins/csrf';
import errorHandlerPlugin, { clientErrorHandler, frameworkErrors } from './plugins/error-handler';
import jsonBodyPlugin from './plugins/json-body';
import openapiPlugin from './plugins/openapi';
import securityHeadersPlugin from './plugins/security-headers';
import { schemaController } from './plugins/validation';
import webAppPlugin from './plugins/web-app';
import { oneAtATime } from './storage/serialize';
import { openConfiguredStorage, type Storage } from './storage/storage';
import { DiskSpaceWatch } from './storage/disk-space';
import { SettingsRepository } from './storage/settings.repository';
import { StorageHealth } from './storage/storage-health';

/** Fields of logs that may hold secrets; pino replaces them. */
export const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.masterPassword',
  '*.currentPassword',
  '*.currentMasterPassword',
  '*.newPassword',
  '*.apiKey',
];

/** Time a client has to send a request's headers. */
const HEADERS_TIMEOUT_MS = 15_000;

export interface AppContext {
  config: Config;
  instanceId: string;
  metrics: Metrics;
  storage: Storage;
  bus: EventBus;
  /** This instance as one of several (REDIS_URL); null when it runs alone. */
  member: ClusterMember | null;
  users: UsersRepository;
  usersService: UsersService;
  audit: AuditService;
  auditRepo: AuditRepository;
  auth: AuthService;
  devices: DevicesService;
  devicesRepo: DevicesRepository;
  telemetry: TelemetryService;
  gateway: DeviceGateway;
  /** The ingest side's writes (readings, alarm changes, outbox), the engine's own way. */
  readingsWriter: StoreWriter;
  mqtt: MqttTransport;
  commands: CommandsService;
  commandsRepo: CommandsRepository;
  deviceAdmin: DeviceAdminService;
  readings: ReadingsRepository;
  history: HistoryService;
  alarmRules: AlarmRulesService;
  alarmEngine: AlarmEngine;
  alarms: AlarmsService;
  notifications: Notifications;
  retention: ReadingsRetention;
  storageHealth: StorageHealth;
  disk: DiskSpaceWatch;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    jobs: BackgroundJobs;
    /** `/metrics` on METRICS_PORT, when configured. */
    metricsServer: MetricsServer | null;
  }
}

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
}

/** Builds the whole server (storage, services, routes); never listens, so tests can use it directly. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  // Every log line names this server (SCALE.md); the name is known once the database is open.
  let instanceForLogs: string | null = config.instanceId;
  const app = Fastify({
    logger: options.logger ?? {
      level: config.logLevel,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      mixin: () => (instanceForLogs ? { instance: instanceForLogs } : {}),
    },
    bodyLimit: 256 * 1024,
    // Per-request lines would dominate the log (and the CPU) at thousands of readings per second.
    logController: new LogController({ disableRequestLogging: true }),
    // Only named proxies may say who the client is (X-Forwarded-For/-Proto/-Host): the sign-in
    // lockout, the audit's addresses and the Secure cookie depend on it.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    // A whole request (headers and body) must arrive in time: a body trickled one byte at a time
    // would otherwise hold a connection for ever. Long polls and sockets are responses: unaffected.
    requestTimeout: config.requestTimeoutS * 1000,
    http: {
      headersTimeout: Math.min(HEADERS_TIMEOUT_MS, config.requestTimeoutS * 1000 || HEADERS_TIMEOUT_MS),
      // Node looks for requests past their time every 30 s by default; a timeout of a few seconds needs a closer look.
      connectionsCheckingInterval: 1_000,
      // Node would refuse a request without Host with a bare 400; the error handler refuses it in the envelope.
      requireHostHeader: false,
    },
    // Requests refused by the HTTP parser or the router answer the API's envelope too.
    clientErrorHandler,
    frameworkErrors,
    // Devices hold keep-alive connections and long polls; a shutdown must not wait for them.
    forceCloseConnections: true,
    // Type coercion is per request part (plugins/validation): URL strings yes, JSON bodies never.
    ajv: { customOptions: { removeAdditional: false, allErrors: false } },
    schemaController: schemaController(),
  });

  // One host may not hold every descriptor; a trusted proxy speaks for many clients.
  const httpConnections = connectionCapFor(config);
  app.server.on('connection', (socket: Socket) => {
    if (!httpConnections.admit(socket)) socket.destroy();
  });

  const storage = await openConfiguredStorage(config, app.log, { instanceName: config.instanceId ?? undefined });
  app.addHook('onClose', async () => storage.close());

  const ctx = await createContext(config, storage, app);
  instanceForLogs = ctx.instanceId;
  app.decorate('ctx', ctx);

  await app.register(securityHeadersPlugin);
  await app.register(cookie);
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  await app.register(errorHandlerPlugin, { storageHealth: ctx.storageHealth });
  await app.register(jsonBodyPlugin);
  await app.register(openapiPlugin, { version: config.version });
  await app.register(csrfPlugin, { allowedOrigins: config.allowedOrigins });
  await app.register(accessPlugin, { auth: ctx.auth, cookie: { secure: config.cookieSecure, ttlH: config.sessionTtlH } });

  await app.register(systemRoutes, {
    demo: config.demo,
    version: config.version,
    storageHealthy: async () => {
      try {
        await storage.ping();
        return true;
      } catch {
        return false;
      }
    },
    storageHealth: ctx.storageHealth,
    disk: ctx.disk,
    mqttPort: () => ctx.mqtt.port(),
  });
  await app.register(authRoutes, { auth: ctx.auth, cookieSecure: config.cookieSecure, sessionTtlH: config.sessionTtlH });
  await app.register(devicesRoutes, { devices: ctx.devices, admin: ctx.deviceAdmin });
  await app.register(commandsRoutes, { commands: ctx.commands, repo: ctx.commandsRepo });
  await app.register(usersRoutes, { users: ctx.users, service: ctx.usersService });
  await app.register(auditRoutes, { repo: ctx.auditRepo });
  await app.register(deviceRoutes, { gateway: ctx.gateway });
  await app.register(historyRoutes, { history: ctx.history });
  await app.register(alarmsRoutes, { rules: ctx.alarmRules, alarms: ctx.alarms, devices: ctx.devices });
  await app.register(notificationsRoutes, { notifications: ctx.notifications.service });
  await app.register(liveRoutes, { bus: ctx.member?.feed ?? ctx.bus, auth: ctx.auth, devices: ctx.devices, openAlarms: () => ctx.alarms.open(), metrics: ctx.metrics });
  await app.register(metricsRoutes, { metrics: ctx.metrics, token: config.metricsToken });
  await app.register(webAppPlugin, { distDir: config.webDistDir, serveSourceMaps: config.serveSourceMaps });

  const jobs = backgroundJobs(ctx, app.log);
  app.decorate('jobs', jobs);
  const metricsServer = config.metricsPort === null ? null : new MetricsServer(ctx.metrics, { port: config.metricsPort, host: config.host });
  app.decorate('metricsServer', metricsServer);
  // The broker takes its port (or the external one is reached) when the app gets ready: a failure stops the start.
  app.addHook('onReady', async () => {
    await ctx.mqtt.start();
    if (metricsServer) app.log.info({ port: await metricsServer.listen() }, 'metrics served on METRICS_PORT');
    await jobs.startAll();
  });
  app.addHook('onClose', async () => {
    await metricsServer?.close();
    await jobs.stopAll();
    await ctx.mqtt.close();
    // After the broker: what devices sent until then is committed before the thread ends.
    await ctx.readingsWriter.close();
    await ctx.notifications.close();
  });
  return app;
}

/** Every timer and loop of the server, in the order they start (they stop in reverse). */
function backgroundJobs(ctx: AppContext, log: FastifyBaseLogger): BackgroundJobs {
  const jobs = new BackgroundJobs(log, ctx.member?.leadership ?? null);
  // Several instances: joined first, left last (the leader's lock goes with it, so another takes over at once).
  if (ctx.member) jobs.add(ctx.member.job);
  const leaderOnly = { leaderOnly: true };
  return (
    jobs
      // Commands left in flight by a previous run, gates left moving (their travel watch).
      .add({ name: 'commands', start: () => ctx.commands.start(), stop: () => ctx.commands.stop() })
      // Open alarms, shelving expiries, and every device evaluated again from what is stored.
      .add({ name: 'alarm engine', start: () => ctx.alarmEngine.start(), stop: () => ctx.alarmEngine.stop() })
      // The outbox: what a previous run left unsent goes first.
      .add({ name: 'notification sender', start: () => ctx.notifications.sender.start(), stop: () => ctx.notifications.sender.stop() }, leaderOnly)
      .every('notification escalation', 5_000, () => ctx.notifications.service.escalate(ctx.alarmEngine.open()), leaderOnly)
      // Users are edited elsewhere: who is told catches up within this (every instance plans notices with its alarm changes).
      .every('notification recipients', 15_000, () => ctx.notifications.directory.reload())
      .every('command lifecycle (timeouts, re-delivery)', 1_000, () => ctx.commands.tick())
      .every('device offline sweep', 1_000, () => ctx.devices.sweepOffline())
      // lastSeen is written lazily; the last flush at shutdown keeps what was heard.
      .every('lastSeen flush', 5_000, () => ctx.devices.flushLastSeen(), { onStop: () => ctx.devices.flushLastSeen() })
      .every('expired sessions', 5_000, () => ctx.auth.pruneExpired(), leaderOnly)
      // Seqs past their 24 h window: bounded memory, not correctness (expired runs count for nothing).
      .every('expired seqs', 60_000, () => ctx.readingsWriter.pruneExpiredSeqs(), leaderOnly)
      .add({ name: 'readings retention', start: () => ctx.retention.start(), stop: () => ctx.retention.stop() }, leaderOnly)
      .add({ name: 'free disk space', start: () => ctx.disk.start(), stop: () => ctx.disk.stop() })
      // Summaries of collapsed audit refusals still open at shutdown are written then.
      .add({ name: 'audit summaries', start: () => undefined, stop: () => ctx.audit.stop() })
  );
}

/** Levels Prometheus reads at each scrape (counters are counted where things happen). */
function measureLevels(metrics: Metrics, from: { storage: Storage; mqtt: MqttTransport; alarmEngine: AlarmEngine; member: ClusterMember | null }): void {
  const { member } = from;
  metrics.level('agua_leader', 'Whether this instance runs the shared background work (1 = leader; always 1 for a single instance)', [], () => [[{}, member ? Number(member.leadership.isLeader()) : 1]]);
  if (member) metrics.level('agua_devices_owned', 'Devices whose work runs on this instance (several instances)', [], () => [[{}, member.ownership.ownedCount()]]);
  metrics.level('agua_mqtt_sessions', 'Devices holding an MQTT session (with an external broker: whose status says online)', [], () => [[{}, from.mqtt.sessionCount()]]);
  metrics.level('agua_alarms_open', 'Open alarms (active or unacknowledged), by priority', ['priority'], () => {
    const byPriority = new Map<number, number>();
    for (const alarm of from.alarmEngine.open()) byPriority.set(alarm.priority, (byPriority.get(alarm.priority) ?? 0) + 1);
    return [1, 2, 3, 4].map((p) => [{ priority: String(p) }, byPriority.get(p) ?? 0]);
  });
  const { db } = from.storage;
  metrics.level('agua_commands', 'Commands stored, by status (their result once final)', ['status'], async () =>
    (await db.selectFrom('commands').select((eb) => ['status', eb.fn.countAll<number>().as('n')]).groupBy('status').execute()).map((r) => [
      { status: r.status },
      Number(r.n),
    ]),
  );
  metrics.level('agua_notification_outbox_pending', 'Notifications waiting to be sent, by channel', ['channel'], async () =>
    (
      await db
        .selectFrom('notification_outbox')
        .select((eb) => ['channel', eb.fn.countAll<number>().as('n')])
        .where('state', '=', 'pending')
        .groupBy('channel')
        .execute()
    ).map((r) => [{ channel: r.channel }, Number(r.n)]),
  );
}

/** The embedded broker, or the utility's own (MQTT_URL) with the device accounts kept in step on it. */
function mqttTransport(
  config: Config,
  deps: { storage: Storage; keyPepper: string; instanceId: string; devices: DevicesService; gateway: DeviceGateway; bus: EventBus; log: FastifyBaseLogger },
): MqttTransport {
  const { gateway, bus, log } = deps;
  if (!config.externalBroker) {
    return new MqttBroker({ port: config.mqttPort, host: config.host, gateway, bus, log, connectionCap: connectionCapFor(config) });
  }
  const broker = config.externalBroker;
  const credentials = new BrokerCredentials(deps.storage.db, deps.keyPepper);
  const keyMatches = (device: DeviceRecord, key: string) => device.keyHash === hashDeviceKey(deps.keyPepper, key);
  return new ExternalBroker({
    config: broker,
    instanceId: deps.instanceId,
    gateway,
    bus,
    log,
    accounts: (dynsec) =>
      new BrokerAccounts({
        dynsec,
        devices: deps.devices,
        credentials,
        keyMatches,
        // A demo device's key is public (PROTOCOL.md), so its account can always be made again.
        publicKey: demoDeviceKey,
        serverUsername: broker.username,
        log,
      }),
  });
}

async function createContext(config: Config, storage: Storage, app: FastifyInstance): Promise<AppContext> {
  const bus = new EventBus();
  const users = new UsersRepository(storage.db);
  const settings = new SettingsRepository(storage.db);
  // Names this server in logs, metrics and its broker sessions; made once, so a new port or host
  // name keeps it. Instances sharing a database each have their own (host name and port).
  const instanceId =
    config.redisUrl !== null
      ? clusterInstanceId(config)
      : (config.instanceId ?? (await settings.getOrCreate('instance_id', () => `${hostLabel()}-${randomBytes(3).toString('hex')}`)));
  const member = config.redisUrl !== null && config.databaseUrl !== null ? await joinCluster({ ...config, redisUrl: config.redisUrl, databaseUrl: config.databaseUrl }, instanceId, app.log) : null;
  if (member) app.addHook('onClose', async () => member.cluster.close());
  else if (storage.engine === 'postgres') {
    app.log.info('no REDIS_URL: this instance runs alone on this PostgreSQL database (another one is refused; several need REDIS_URL on every one)');
  }
  const placement = member?.ownership ?? SOLO;
  const metrics = new Metrics(instanceId);
  const auditRepo = new AuditRepository(storage.db);
  const audit = new AuditService(auditRepo, app.log, { collapseWindowMs: config.auditCollapseWindowMs });
  const devicesRepo = new DevicesRepository(storage.db);
  const keyPepper = config.deviceKeyPepper ?? (await settings.getOrCreate('device_key_pepper', () => randomBytes(32).toString('hex')));
  // The probe is a tiny real write: whether the storage takes writes again after a fault.
  const storageHealth = new StorageHealth(() => settings.put('storage_probe', new Date().toISOString()), app.log);
  // DATA_DIR's disk holds the database only on SQLite; PostgreSQL reports a full disk itself (53100).
  if (storage.engine === 'postgres') fs.mkdirSync(config.dataDir, { recursive: true });
  const disk = new DiskSpaceWatch(config.dataDir, storage.engine === 'sqlite' ? config.diskMinFreeMb * 2 ** 20 : 0, app.log);
  const auth = new AuthService(users, new SessionsRepository(storage.db), new LoginFailuresRepository(storage.db), audit, bus, {
    sessionTtlMs: config.sessionTtlH * 3600 * 1000,
    maxFailuresPerUser: config.loginMaxFailuresPerUser,
    maxFailuresPerAddress: config.loginMaxFailuresPerAddress,
  });
  // Instances starting at once on one PostgreSQL: the first seeds, the others find it done.
  if (config.demo && (await oneAtATime(storage, 'agua.demo-seed', () => seedDemo(users, devicesRepo, keyPepper)))) app.log.info('demo data seeded');
  const devices = new DevicesService(devicesRepo, bus, { defaultOfflineAfterS: config.deviceOfflineAfterS, keyPepper, placement });
  const commandsRepo = new CommandsRepository(storage.db);
  await devices.load(async (id) => {
    const c = await commandsRepo.findById(id);
    return c ? toCommand(c) : null;
  });
  const readingsWriter: StoreWriter =
    storage.engine === 'sqlite'
      ? new ReadingsWriterThread(storage.file, storageHealth, app.log)
      : new PostgresStore(storage.pool, storage.partitions, storageHealth, app.log, config.retentionDays);
  const telemetry = new TelemetryService(readingsWriter, devices, bus, (readings, seconds) => metrics.committed(readings, seconds));
  const travel = new GateTravelWatch(
    devices,
    bus,
    (deviceId) => telemetry.recordGateFault(deviceId),
    (err) => app.log.error({ err }, 'recording a gate travel fault failed'),
    placement,
  );
  const commands = new CommandsService(commandsRepo, devices, bus, audit, travel, {
    commandTimeoutS: config.commandTimeoutS,
    defaultOfflineAfterS: config.deviceOfflineAfterS,
    placement,
  });
  const gateway = new DeviceGateway({ devices, limiter: new DeviceRateLimiter(config.deviceRateLimit), telemetry, commands, metrics, placement });
  const mqtt = mqttTransport(config, { storage, keyPepper, instanceId, devices, gateway, bus, log: app.log });
  commands.useMqtt({ isConnected: (id) => mqtt.isConnected(id), deliver: (id, command) => mqtt.publish(topics.commands(id), command) });
  const usersService = new UsersService(users, audit, auth);
  const readings = new ReadingsRepository(storage.db, storage.engine);
  const alarmRules = new AlarmRulesService(new AlarmRulesRepository(storage.db), audit, bus);
  await alarmRules.load(devices.listRecords().filter((d) => d.retiredAtMs === null));
  const alarmsRepo = new AlarmsRepository(storage.db);
  // Alarm changes are written by the writer thread too: one connection writes (ADR 009).
  const alarmEngine = new AlarmEngine(alarmsRepo, { writeAll: (changes) => readingsWriter.writeAlarms(changes) }, alarmRules, devices, bus, app.log, placement);
  telemetry.useAlarms(alarmEngine);
  const deviceAccess = mqtt instanceof ExternalBroker ? mqtt.accounts : undefined;
  const deviceAdmin = new DeviceAdminService(devicesRepo, devices, bus, audit, keyPepper, {
    created: (device) => alarmRules.createDefaults(device),
    settingsChanged: (device, before) => alarmRules.thresholdsChanged(device, before),
    purging: async (deviceId) => {
      await readings.deleteByDevice(deviceId);
      await readingsWriter.forgetDevice(deviceId);
      await commandsRepo.deleteByDevice(deviceId);
      await alarmEngine.purgeDevice(deviceId);
      alarmRules.forget(deviceId);
    },
  }, deviceAccess);
  const alarms = new AlarmsService(alarmEngine, alarmsRepo, audit);
  const notifications = await createNotifications({ config, db: storage.db, settings, users, devices, alarmEngine, store: readingsWriter, audit, log: app.log });
  bus.on('alarm.updated', () => notifications.sender.kick());
  member?.wire({ bus, devices, commands, alarmEngine, alarmRules, mqtt, users, alarmChanged: () => notifications.sender.kick() });
  const reader: ReadingsReader = storage.engine === 'sqlite' ? new SqliteReadingsReader(storage.sqlite) : new PgReadingsReader(storage.pool);
  const history = new HistoryService(readings, reader, devices);
  const retention = new ReadingsRetention(readings, {
    retentionDays: config.retentionDays,
    log: app.log,
    // PostgreSQL drops whole day partitions, and makes the days ahead on the same schedule.
    ...(storage.engine === 'postgres' && {
      pruneBefore: async (cutoffMs: number) => {
        await storage.partitions.makeAhead();
        return storage.partitions.pruneBefore(cutoffMs);
      },
    }),
  });
  measureLevels(metrics, { storage, mqtt, alarmEngine, member });
  return { config, instanceId, metrics, storage, bus, member, users, usersService, audit, auditRepo, auth, devices, devicesRepo, telemetry, gateway, readingsWriter, mqtt, commands, commandsRepo, deviceAdmin, readings, history, alarmRules, alarmEngine, alarms, notifications, retention, storageHealth, disk };
}
