import type { Socket } from 'node:net';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import websocket from '@fastify/websocket';
import type { Config } from './config/env';
import type { AlarmEngine } from './features/alarms/alarm-engine';
import { createAlarms, type AlarmsModule } from './features/alarms/alarms.module';
import alarmsRoutes from './features/alarms/alarms.routes';
import { createAudit, type AuditModule } from './features/audit/audit.module';
import auditRoutes from './features/audit/audit.routes';
import { createAuth, type AuthModule } from './features/auth/auth.module';
import authRoutes from './features/auth/auth.routes';
import { createCluster, type ClusterMember, type ClusterModule } from './features/cluster/cluster.module';
import { createCommands, lastCommandOf, type CommandsModule } from './features/commands/commands.module';
import commandsRoutes from './features/commands/commands.routes';
import type { MqttDelivery, ScheduleHolds } from './features/commands/commands.service';
import type { DeviceAdminService } from './features/devices/device-admin.service';
import { createDeviceAdmin, createDevices, type DevicesModule } from './features/devices/devices.module';
import devicesRoutes from './features/devices/devices.routes';
import type { DeviceGateway } from './features/gateway/device-gateway';
import deviceRoutes from './features/gateway/device.routes';
import { createGateway } from './features/gateway/gateway.module';
import { createHistory, RETENTION_EVERY_MS, RETENTION_FIRST_AFTER_MS, type HistoryModule } from './features/history/history.module';
import historyRoutes from './features/history/history.routes';
import { exportWaterColumns } from './features/water/export-columns';
import liveRoutes from './features/live/live.routes';
import { Metrics } from './features/metrics/metrics';
import metricsRoutes, { MetricsServer } from './features/metrics/metrics.routes';
import { createMqtt, type MqttModule } from './features/mqtt/mqtt.module';
import type { MqttTransport } from './features/mqtt/mqtt-transport';
import { createNotifications, NOTIFICATION_POLL_MS, type Notifications } from './features/notifications/notifications.module';
import notificationsRoutes from './features/notifications/notifications.routes';
import { DAILY_TOTALS_EVERY_MS, DAILY_TOTALS_FIRST_AFTER_MS } from './features/water/daily.service';
import { createOverflows, type OverflowsModule } from './features/overflows/overflows.module';
import overflowRoutes from './features/overflows/overflows.routes';
import { createReports, type ReportsModule } from './features/reports/reports.module';
import reportRoutes from './features/reports/reports.routes';
import interlockRoutes from './features/interlocks/interlocks.routes';
import scheduleRoutes from './features/schedules/schedules.routes';
import { createSchedules, type SchedulesModule } from './features/schedules/schedules.module';
import { createInterlocks, type InterlocksModule } from './features/interlocks/interlocks.module';
import { createSites, type SitesModule } from './features/sites/sites.module';
import { SitesRepository } from './features/sites/sites.repository';
import { SynopticsRepository } from './features/sites/synoptics.repository';
import siteRoutes from './features/sites/sites.routes';
import synopticRoutes from './features/sites/synoptic.routes';
import { REPORT_SCHEDULE_EVERY_MS } from './features/reports/report-scheduler';
import { REPORT_RUNS_EVERY_MS } from './features/reports/report-runner';
import { OVERFLOW_FLUSH_EVERY_MS } from './features/overflows/overflow-recorder';
import { WATER_HOURS_EVERY_MS, WATER_HOURS_FIRST_AFTER_MS } from './features/water/water-hours.service';
import { createWater, type WaterModule } from './features/water/water.module';
import waterRoutes from './features/water/water.routes';
import systemRoutes from './features/system/system.routes';
import { createTelemetry } from './features/telemetry/telemetry.module';
import type { TelemetryService } from './features/telemetry/telemetry.service';
import usersRoutes from './features/users/users.routes';
import settingsRoutes from './features/settings/settings.routes';
import { BackgroundJobs } from './lib/background-jobs';
import { connectionCapFor } from './lib/connection-cap';
import { EventBus } from './lib/event-bus';
import { Late } from './lib/late';
import compress from '@fastify/compress';
import accessPlugin from './plugins/access';
import csrfPlugin from './plugins/csrf';
import forwardedWarningPlugin from './plugins/forwarded-warning';
import errorHandlerPlugin, { clientErrorHandler, frameworkErrors } from './plugins/error-handler';
import jsonBodyPlugin from './plugins/json-body';
import openapiPlugin from './plugins/openapi';
import securityHeadersPlugin, { tileSourceOf } from './plugins/security-headers';
import { schemaController } from './plugins/validation';
import webAppPlugin from './plugins/web-app';
import type { IngestStore } from './storage/ingest/ingest-store';
import { openIngestStore } from './storage/ingest/open-ingest-store';
import type { AlarmChangeRow } from './storage/ingest/rows';
import { openConfiguredStorage, type Storage } from './storage/storage';
import { createStorageServices, type StorageServices } from './storage/storage.module';

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

/** The longest timer (about 25 days): a job that runs at start, then again only that rarely. */
const ONCE = 2 ** 31 - 1;

/** Time a client has to send a request's headers. */
const HEADERS_TIMEOUT_MS = 15_000;

/** The server's parts, as `buildApp` composed them (in dependency order: each names what it uses). */
export interface ServerModules {
  storage: Storage;
  storageServices: StorageServices;
  cluster: ClusterModule;
  bus: EventBus;
  metrics: Metrics;
  audit: AuditModule;
  auth: AuthModule;
  devices: DevicesModule;
  /** The ingest side's writes (readings, alarm changes, outbox), the engine's own way. */
  writer: IngestStore;
  alarms: AlarmsModule;
  telemetry: TelemetryService<AlarmChangeRow>;
  interlocks: InterlocksModule;
  schedules: SchedulesModule;
  commands: CommandsModule;
  gateway: DeviceGateway;
  mqtt: MqttModule;
  history: HistoryModule;
  deviceAdmin: DeviceAdminService;
  notifications: Notifications;
  water: WaterModule;
  overflows: OverflowsModule;
  reports: ReportsModule;
  sites: SitesModule;
}

/** A built server: the Fastify instance, and what else its starter and tests need of it. */
export interface BuiltApp {
  app: FastifyInstance;
  /** The embedded broker's port once the app is ready; null with an external broker. */
  mqttPort(): number | null;
  /** Every part, for tests that look inside; the server itself needs only `app` and `mqttPort`. */
  modules: ServerModules;
  jobs: BackgroundJobs;
  /** `/metrics` on METRICS_PORT, when configured. */
  metricsServer: MetricsServer | null;
}

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
}

/** Builds the whole server (storage, services, routes); never listens, so tests can use it directly. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<BuiltApp> {
  // Every log line names this server (docs/operations.md); the name is known once the database is open.
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

  const modules = await composeModules(config, storage, app.log);
  const { cluster, auth, devices, commands, alarms, mqtt, notifications, storageServices } = modules;
  instanceForLogs = cluster.instanceId;
  const { member } = cluster;
  if (member) app.addHook('onClose', async () => member.cluster.close());

  await app.register(securityHeadersPlugin, { imgSources: config.map.tileUrl ? [tileSourceOf(config.map.tileUrl)] : [] });
  // Before any check that may refuse the request: a proxy nobody named shows on its first request.
  if (config.trustProxy.length === 0) await app.register(forwardedWarningPlugin);
  await app.register(cookie);
  // Only the routes that answer long lists opt in (`compress: LIST_COMPRESSION`): the device and
  // ingest routes answer a few bytes, and must not pay for a hook they never use.
  await app.register(compress, { global: false, encodings: ['gzip', 'deflate'], threshold: 1024 });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  await app.register(errorHandlerPlugin, { storageHealth: storageServices.storageHealth });
  await app.register(jsonBodyPlugin);
  await app.register(openapiPlugin, { version: config.version });
  await app.register(csrfPlugin, { allowedOrigins: config.allowedOrigins });
  // ALLOWED_NETWORKS (docs/security.md): sign-in, session routes and the live socket from elsewhere are refused, audited.
  const allowedFrom = config.allowedNetworks ? (address: string) => config.allowedNetworks!.allows(address) : undefined;
  const addressRefused = (req: FastifyRequest) =>
    modules.audit.service.record({ action: 'auth.address_refused', userId: null, username: null, target: null, result: 'denied', ip: req.ip, details: { route: `${req.method} ${req.routeOptions.url}` } });
  await app.register(accessPlugin, { auth: auth.auth, cookie: { secure: config.cookieSecure, ttlH: config.sessionTtlH }, ...(allowedFrom ? { allowedFrom, addressRefused } : {}) });

  await app.register(systemRoutes, {
    demo: config.demo,
    version: config.version,
    alarmShelveCritical: config.alarmShelveCritical,
    map: config.map,
    storageHealthy: async () => {
      try {
        await storage.ping();
        return true;
      } catch {
        return false;
      }
    },
    storageHealth: storageServices.storageHealth,
    disk: storageServices.disk,
    mqtt: mqtt.transport,
  });
  await app.register(authRoutes, { auth: auth.auth, twoFactor: auth.twoFactor, settings: auth.settings, cookieSecure: config.cookieSecure, sessionTtlH: config.sessionTtlH, ...(allowedFrom ? { allowedFrom, addressRefused } : {}) });
  // `?siteId=` on the lists and exports (docs/sites.md): the site's devices, 404 SITE_NOT_FOUND for an unknown site.
  const siteDeviceIds = (siteId: string) => modules.sites.sites.deviceIdsOf(siteId);
  await app.register(devicesRoutes, { devices: devices.service, admin: modules.deviceAdmin, siteDeviceIds });
  await app.register(commandsRoutes, { commands: commands.service });
  await app.register(usersRoutes, { users: auth.users, service: auth.usersService, totpRequiredRoles: () => auth.settings.totpRequiredRoles() });
  await app.register(settingsRoutes, { settings: auth.settings });
  await app.register(auditRoutes, { audit: modules.audit.service });
  await app.register(deviceRoutes, { gateway: modules.gateway });
  await app.register(historyRoutes, { history: modules.history.service, waterColumns: exportWaterColumns(modules.water.geometry), siteDeviceIds });
  await app.register(alarmsRoutes, { rules: alarms.rules, alarms: alarms.service, devices: devices.service, siteDeviceIds });
  await app.register(notificationsRoutes, { notifications: notifications.service });
  await app.register(waterRoutes, { geometry: modules.water.geometry, analytics: modules.water.analytics, daily: modules.water.daily });
  await app.register(overflowRoutes, { overflows: modules.overflows.service });
  await app.register(reportRoutes, { reports: modules.reports.service, requested: () => modules.reports.runner.kick() });
  await app.register(interlockRoutes, {
    interlocks: modules.interlocks.service,
    typeOf: (id) => {
      const d = devices.service.get(id);
      return d && d.retiredAtMs === null ? d.type : undefined;
    },
  });
  await app.register(scheduleRoutes, { schedules: modules.schedules.service });
  await app.register(siteRoutes, { sites: modules.sites.sites });
  await app.register(synopticRoutes, { synoptics: modules.sites.synoptics });
  await app.register(liveRoutes, {
    bus: member?.feed ?? modules.bus,
    auth: auth.auth,
    devices: devices.service,
    openAlarms: () => alarms.service.open(),
    bypasses: () => modules.interlocks.service.bypassesNow(),
    waterFigures: (deviceId) => modules.water.figures.analyticsOf(deviceId),
    totpRequiredRoles: () => auth.settings.cachedTotpRequiredRoles(),
    metrics: modules.metrics,
  });
  await app.register(metricsRoutes, { metrics: modules.metrics, token: config.metricsToken });
  await app.register(webAppPlugin, { distDir: config.webDistDir, serveSourceMaps: config.serveSourceMaps });

  const jobs = backgroundJobs(modules, app.log);
  const metricsServer = config.metricsPort === null ? null : new MetricsServer(modules.metrics, { port: config.metricsPort, host: config.host });
  // The broker takes its port (or the external one is reached) when the app gets ready: a failure stops the start.
  app.addHook('onReady', async () => {
    await mqtt.transport.start();
    if (metricsServer) app.log.info({ port: await metricsServer.listen() }, 'metrics served on METRICS_PORT');
    await jobs.startAll();
  });
  app.addHook('onClose', async () => {
    await metricsServer?.close();
    await jobs.stopAll();
    await mqtt.transport.close();
    // After the broker: what devices sent until then is committed before the thread ends.
    await modules.writer.close();
    // Stored hours that late readings changed go before the database does (docs/water.md).
    await modules.water.hours.flush().catch((err: unknown) => app.log.error({ err }, 'stored water hours touched by late readings were not deleted'));
    await notifications.close();
    await modules.sites.sanitizer.close();
  });
  return { app, mqttPort: () => mqtt.transport.port(), modules, jobs, metricsServer };
}

/** Every timer and loop of the server, in the order they start (they stop in reverse). */
function backgroundJobs(m: ServerModules, log: FastifyBaseLogger): BackgroundJobs {
  const { member } = m.cluster;
  const { auth } = m.auth;
  const devices = m.devices.service;
  const commands = m.commands.service;
  const alarmEngine = m.alarms.engine;
  const { notifications, writer } = m;
  const { retention } = m.history;
  const { disk } = m.storageServices;
  const jobs = new BackgroundJobs(log, member?.leadership ?? null);
  // Several instances: joined first, left last (the leader's lock goes with it, so another takes over at once).
  member?.addJobs(jobs);
  const leaderOnly = { leaderOnly: true };
  return (
    jobs
      // Commands left in flight by a previous run, gates left moving (their travel watch).
      .add({ name: 'commands', start: () => commands.start(), stop: () => commands.stop() })
      // Open alarms, shelving expiries, and every device evaluated again from what is stored.
      .add({ name: 'alarm engine', start: () => alarmEngine.start(), stop: () => alarmEngine.stop() })
      // The outbox: what a previous run left unsent goes first.
      .every('notification sender', NOTIFICATION_POLL_MS, () => notifications.sender.pollNow(), {
        ...leaderOnly,
        onStart: () => notifications.sender.start(),
        onStop: () => notifications.sender.stop(),
      })
      .every('notification escalation', 5_000, () => notifications.service.escalate(alarmEngine.open()), leaderOnly)
      // Users are edited elsewhere: who is told catches up within this (every instance plans notices with its alarm changes).
      .every('notification recipients', 15_000, () => notifications.directory.reload())
      .every('command lifecycle (timeouts, re-delivery, approvals expired)', 1_000, () => commands.tick())
      // Bypasses end by themselves at their time (at most a second or two late), on any instance.
      .every('interlock bypass expiry', 1_000, () => m.interlocks.service.expireBypasses(), { onStart: () => m.interlocks.service.start() })
      // Gate schedules: each instance runs those of the gates whose timers it runs; a run is claimed once.
      .every('gate schedules', 1_000, () => m.schedules.runner.tick(), { firstAfterMs: 0 })
      .every('device offline sweep', 1_000, () => devices.sweepOffline())
      // lastSeen is written lazily; the last flush at shutdown keeps what was heard.
      .every('lastSeen flush', 5_000, () => devices.flushLastSeen(), { onStop: () => devices.flushLastSeen() })
      .every('expired sessions', 5_000, () => auth.pruneExpired(), leaderOnly)
      // Seqs past their 24 h window: bounded memory, not correctness (expired runs count for nothing).
      .every('expired seqs', 60_000, () => writer.pruneExpiredSeqs(), leaderOnly)
      .every('readings retention', RETENTION_EVERY_MS, () => retention.runOnce(), {
        ...leaderOnly,
        firstAfterMs: RETENTION_FIRST_AFTER_MS,
        onStart: () => retention.start(),
        interrupt: () => retention.interrupt(),
      })
      // Stored daily totals follow their readings (yesterday and today); retention never prunes them.
      .every('daily totals', DAILY_TOTALS_EVERY_MS, () => m.water.daily.recomputeRecent(), { ...leaderOnly, firstAfterMs: DAILY_TOTALS_FIRST_AFTER_MS })
      // Overflow events: one instance judges readings as they come and writes open events' progress;
      // it judges every level sensor from its cursor at start (what a stop left unjudged). With
      // several, the leader judges them from stored readings every OVERFLOW_FLUSH_EVERY_MS.
      .every('overflow events progress', OVERFLOW_FLUSH_EVERY_MS, () => m.overflows.recorder.flush(), { onStop: () => m.overflows.recorder.stop() })
      .every('overflow events catch-up', m.cluster.member ? OVERFLOW_FLUSH_EVERY_MS : ONCE, () => m.overflows.recorder.catchUp(), { ...leaderOnly, firstAfterMs: 0, onStop: () => m.overflows.recorder.settle() })
      // Stored per-hour figures (analytics' hours and days) for every complete hour; derived, pruned with their readings.
      .every('water hours', WATER_HOURS_EVERY_MS, () => m.water.hours.recompute(), { ...leaderOnly, firstAfterMs: WATER_HOURS_FIRST_AFTER_MS })
      // Reports: the leader queues scheduled runs (and, at start, the periods missed while off);
      // every instance generates queued runs, each taken by one of them.
      .every('report schedule', REPORT_SCHEDULE_EVERY_MS, () => m.reports.scheduler.tick(), { ...leaderOnly, firstAfterMs: 0 })
      .every('report runs', REPORT_RUNS_EVERY_MS, () => m.reports.runner.tick(), { firstAfterMs: 0, onStart: () => m.reports.runner.start(), onStop: () => m.reports.runner.stop() })
      .add({ name: 'free disk space', start: () => disk.start(), stop: () => disk.stop() })
      // Summaries of collapsed audit refusals still open at shutdown are written then.
      .add({ name: 'audit summaries', start: () => undefined, stop: () => m.audit.service.stop() })
  );
}

/** Levels Prometheus reads at each scrape (counters are counted where things happen). */
function measureLevels(
  metrics: Metrics,
  from: { commands: CommandsModule['repo']; notifications: Notifications['service']; mqtt: MqttTransport; alarmEngine: AlarmEngine; member: ClusterMember | null },
): void {
  const { member } = from;
  metrics.level('agua_leader', 'Whether this instance runs the shared background work (1 = leader; always 1 for a single instance)', [], () => [[{}, member ? Number(member.leadership.isLeader()) : 1]]);
  if (member) metrics.level('agua_devices_owned', 'Devices whose work runs on this instance (several instances)', [], () => [[{}, member.ownership.ownedCount()]]);
  metrics.level('agua_mqtt_sessions', 'Devices holding an MQTT session (with an external broker: whose status says online)', [], () => [[{}, from.mqtt.sessionCount()]]);
  metrics.level('agua_alarms_open', 'Open alarms (active or unacknowledged), by priority', ['priority'], () => {
    const byPriority = new Map<number, number>();
    for (const alarm of from.alarmEngine.open()) byPriority.set(alarm.priority, (byPriority.get(alarm.priority) ?? 0) + 1);
    return [1, 2, 3, 4].map((p) => [{ priority: String(p) }, byPriority.get(p) ?? 0]);
  });
  metrics.level('agua_commands', 'Commands stored, by status (their result once final)', ['status'], async () =>
    (await from.commands.countByStatus()).map((r) => [{ status: r.status }, r.count]),
  );
  metrics.level('agua_notification_outbox_pending', 'Notifications waiting to be sent, by channel', ['channel'], async () =>
    (await from.notifications.pendingByChannel()).map((r) => [{ channel: r.channel }, r.count]),
  );
}

/**
 * Every module of the server, built in dependency order: each factory takes what it uses and
 * returns what it provides. Two things close after the fact, both here: the commands' MQTT
 * delivery (a `Late` port: the transport needs the gateway, which needs the commands) and the
 * cluster member's `wire` (the member comes first, since every feature needs its placement).
 */
async function composeModules(config: Config, storage: Storage, log: FastifyBaseLogger): Promise<ServerModules> {
  const { db } = storage;
  const bus = new EventBus();
  const storageServices = createStorageServices({ config, storage, log });
  const { settings, storageHealth } = storageServices;
  const cluster = await createCluster({ config, settings, log });
  const { instanceId, member, placement } = cluster;
  const metrics = new Metrics(instanceId);
  const audit = createAudit({ db, collapseWindowMs: config.auditCollapseWindowMs, log });
  const auth = createAuth({ config, db, settings, audit: audit.service, bus });
  const writer = openIngestStore({ storage, storageHealth, log, retentionDays: config.retentionDays });
  // Before the devices: the demo seed stores its sites there (the sites feature itself comes after the devices).
  const siteStore = new SitesRepository(db);
  const synopticStore = new SynopticsRepository(db);
  const demoSites = { insert: siteStore.insert.bind(siteStore), insertDrawing: synopticStore.insert.bind(synopticStore) };
  const devices = await createDevices({ config, storage, settings, users: auth.users, demoSites, bus, ingest: writer, placement, lastCommand: lastCommandOf(db), log });
  const history = createHistory({ config, storage, devices: devices.service, log });
  // Before the alarms: a level sensor's rules start from its crest, and its water alarms read its figures and spills.
  const readingBatches = (deviceId: string, range: { fromMs: number; toMs: number }) => history.service.exportRows(deviceId, range);
  const overflowCounts = new Late<OverflowsModule['service']>('the overflow events (daily totals count them)');
  const water = await createWater({
    db,
    demo: config.demo,
    devices: devices.service,
    audit: audit.service,
    bus,
    feed: member?.feed ?? bus,
    defaultOfflineAfterS: config.deviceOfflineAfterS,
    readings: readingBatches,
    // The daily totals count the events; the events need the water's geometry (ADR 007's Late).
    overflowEvents: (deviceId, days) => overflowCounts.get().countsStarted(deviceId, days),
    readingsIndex: {
      firstTsMs: async (deviceId) => (await history.readings.page(deviceId, {}, 1))[0]?.tsMs ?? null,
      count: (deviceId, fromMs, toMs) => history.readings.countRows(deviceId, fromMs, toMs),
    },
  });
  const overflows = createOverflows({ db, geometry: water.geometry, readings: readingBatches, devices: devices.service, audit: audit.service, bus, log, inline: member === null });
  overflowCounts.resolve(overflows.service);
  const alarms = await createAlarms({
    db,
    writer,
    devices: devices.service,
    audit: audit.service,
    bus,
    placement,
    router: member?.alarmRouter ?? null,
    log,
    shelveCritical: config.alarmShelveCritical,
    water: water.alarmFeed,
  });
  // A first crest turns the water alarm kinds on, removing it turns them off (docs/water.md "Alarms").
  water.onGeometryStored((deviceId, geometry) => alarms.rules.crestChanged(deviceId, geometry.crestLevelM !== null));
  const telemetry = createTelemetry({
    writer,
    devices: devices.service,
    alarms: alarms.readingAlarms,
    metrics,
    stored: (deviceId, rows) => {
      water.readingsStored(deviceId, rows);
      // Never rejects (a failure is retried from the cursor); the answer waits for it, so the
      // sender's next read finds the overflow event its readings opened or closed.
      return overflows.recorder.readingsStored(deviceId, rows);
    },
    levelOf: (deviceId, tsMs, sent) => water.geometry.levelOf(deviceId, tsMs, sent),
  });
  const interlocks = createInterlocks({
    db,
    devices: devices.service,
    openAlarms: () => alarms.service.open(),
    audit: audit.service,
    bus,
    feed: member?.feed ?? bus,
    defaultOfflineAfterS: config.deviceOfflineAfterS,
  });
  const commandsOverMqtt = new Late<MqttDelivery>('the MQTT delivery of commands');
  const scheduleHolds = new Late<ScheduleHolds>('the schedules holding gates');
  const commands = createCommands({
    config,
    db,
    devices: devices.service,
    bus,
    audit: audit.service,
    placement,
    router: member?.commandRouter ?? null,
    gateFaults: telemetry,
    mqtt: commandsOverMqtt,
    guard: interlocks.service,
    reauth: {
      verify: (user, password) => auth.auth.verifyOwnPassword(user, password),
      settle: (user, ip, ok) => auth.auth.settleSecret(user, ip, ok),
    },
    holds: scheduleHolds,
    log,
  });
  const schedules = createSchedules({
    db,
    devices: devices.service,
    commands: commands.service,
    alarmEngine: alarms.engine,
    verdict: (deviceId, command) => interlocks.service.verdict(deviceId, command),
    audit: audit.service,
    bus,
    placement,
  });
  scheduleHolds.resolve(schedules.service);
  const gateway = createGateway({ config, devices: devices.service, telemetry, commands: commands.service, metrics, placement });
  const mqtt = createMqtt({ config, db, keyPepper: devices.keyPepper, instanceId, devices: devices.service, gateway, bus, log });
  commandsOverMqtt.resolve(mqtt.commandDelivery);
  const deviceAdmin = createDeviceAdmin({
    devices,
    bus,
    audit: audit.service,
    access: {
      keyIssued: async (deviceId, key) => mqtt.deviceAccess?.keyIssued(deviceId, key),
      changed: async (deviceId) => {
        await mqtt.deviceAccess?.changed(deviceId);
        await member?.deviceChangedEverywhere(deviceId);
      },
    },
    lifecycle: {
      created: (device) => alarms.rules.createDefaults(device),
      settingsChanged: (device, before) => alarms.rules.thresholdsChanged(device, before),
      purging: async (deviceId) => {
        await history.readings.deleteByDevice(deviceId);
        await writer.forgetDevice(deviceId);
        await commands.repo.deleteByDevice(deviceId);
        await interlocks.service.forgetDevice(deviceId);
        await schedules.service.forgetDevice(deviceId);
        await alarms.engine.purgeDevice(deviceId);
        alarms.rules.forget(deviceId);
      },
    },
    sites: { exists: async (siteId) => (await siteStore.find(siteId)) !== null },
  });
  const liveDevice = (id: string) => {
    const d = devices.service.get(id);
    return d && d.retiredAtMs === null ? d : undefined;
  };
  const sites = createSites({
    db,
    repo: siteStore,
    devices: {
      idsOf: (siteId) => devices.service.listRecords().filter((d) => d.siteId === siteId).map((d) => d.id),
      detach: (siteId, actor) => deviceAdmin.detachSite(siteId, actor),
    },
    typeOf: (id) => liveDevice(id)?.type,
    audit: audit.service,
    bus,
  });
  const notifications = await createNotifications({
    config,
    db,
    settings,
    users: auth.users,
    devices: devices.service,
    alarmEngine: alarms.engine,
    store: writer,
    audit: audit.service,
    bus,
    log,
  });
  member?.wire({
    bus,
    devices: devices.service,
    commands: commands.service,
    alarmEngine: alarms.engine,
    alarmRules: alarms.rules,
    mqtt: mqtt.transport,
    users: auth.users,
    alarmChanged: () => notifications.sender.kick(),
  });
  const reports = createReports({
    db,
    sources: {
      devices: () => devices.service.listRecords().map((r) => ({ id: r.id, name: r.name, location: r.location, type: r.type })),
      dailyTotals: (deviceId, from, to) => water.daily.days(deviceId, from, to),
      alarmsRaised: async (deviceIds, fromMs, toMs) =>
        (await alarms.service.raisedBetween(deviceIds, fromMs, toMs)).map((a) => ({
          deviceId: a.deviceId,
          kind: a.kind,
          priority: a.priority,
          raisedAtMs: a.raisedAtMs,
          ackedAtMs: a.ackedAtMs,
          endedAtMs: a.clearedAtMs ?? a.endedAtMs,
        })),
      gateOperations: async (deviceIds, fromMs, toMs) =>
        (await commands.repo.issuedBetween(deviceIds, fromMs, toMs)).filter((c) => devices.service.get(c.deviceId)?.type !== 'level_sensor').map((c) => ({
          deviceId: c.deviceId,
          command: c.command,
          status: c.status,
          issuedBy: c.scheduleId !== null ? 'Programación' : (c.issuedBy?.name ?? null),
          issuedAtMs: c.issuedAtMs,
        })),
      overflowEvents: (deviceIds, fromMs, toMs) => overflows.service.list({ deviceIds, fromMs, toMs }),
      readingGaps: (deviceId, fromMs, toMs, minGapMs) => history.readings.gaps(deviceId, fromMs, toMs, minGapMs),
    },
    notifications,
    audit: audit.service,
    bus,
    deviceExists: (id) => devices.service.get(id) !== undefined,
    userExists: async (id) => (await auth.users.findById(id)) !== null,
    publicUrl: config.publicUrl,
    single: member === null,
    log,
  });
  measureLevels(metrics, { commands: commands.repo, notifications: notifications.service, mqtt: mqtt.transport, alarmEngine: alarms.engine, member });
  return { storage, storageServices, cluster, bus, metrics, audit, auth, devices, writer, alarms, telemetry, interlocks, commands, schedules, gateway, mqtt, history, deviceAdmin, notifications, water, overflows, reports, sites };
}
