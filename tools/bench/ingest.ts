/**
 * Ingest benchmark of the server (npm run bench:ingest; see tools/bench/README.md).
 *
 * The server under test runs in a child process (its own event loop); this process is the load
 * generator (autocannon for HTTP, mqtt.js for MQTT, ws for the live sockets) on the same machine.
 * Every figure is the median of --runs measured runs, after one warm-up run.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { type BenchDevice, ADMIN, VIEWER, batchJson, readingJson, registerDevices, signIn } from './ingest/devices';
import { runHttpLoad, type HttpLoadResult } from './ingest/http-load';
import { LiveLatencyBench } from './ingest/live-latency';
import { MqttFleet, type MqttLoadResult } from './ingest/mqtt-load';
import { formatSummary, summarizeProfile } from './ingest/profile-summary';
import { openStorageProbe } from './ingest/storage-probe';
import {
  type RunningServer,
  disposeServer,
  filesystemOf,
  machineCpuTicks,
  processWriteBytes,
  REPO_ROOT,
  selfCpuSeconds,
  startAguaServer,
  startCeilingServer,
} from './ingest/server-process';
import { fmtInt, fmtMs, fmtPct, fmtRatio, median, table } from './ingest/stats';
import { FsyncCounter, diskSyncLatencyMs, perfAvailable, sqliteCommitProbe } from './ingest/syscall-counter';

// ---------------------------------------------------------------------------------------------
// Options

const { values: argv } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    only: { type: 'string' },
    connections: { type: 'string', default: '50' },
    batch: { type: 'string', default: '100' },
    'mqtt-clients': { type: 'string', default: '10' },
    'mqtt-window': { type: 'string', default: '100' },
    'live-sockets': { type: 'string', default: '100' },
    'live-devices': { type: 'string', default: '50' },
    'live-rate': { type: 'string', default: '1000' },
    'live-duration': { type: 'string', default: '8' },
    'limited-devices': { type: 'string', default: '400' },
    profile: { type: 'boolean', default: false },
    'no-perf': { type: 'boolean', default: false },
    'quiet-wait': { type: 'string', default: '10' },
    json: { type: 'string' },
    'server-dir': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

if (argv.help) {
  console.log(`npm run bench:ingest -- [options]
  --runs N            measured runs per figure (default 3; the figure is their median)
  --duration S        seconds per HTTP/MQTT run (default 5)
  --warmup S          seconds of the unmeasured warm-up run before each figure (default 2)
  --only LIST         comma-separated subset of: storage,ceiling,http1,http1-limited,batch,mqtt,live
  --connections N     HTTP connections (default 50), one device each
  --batch N           readings per batch request (default 100)
  --mqtt-clients N    MQTT devices (default 10)   --mqtt-window N  in-flight QoS 1 per client (default 100)
  --live-sockets N    live WebSockets (default 100) --live-devices N (default 50) --live-rate R readings/s (default 1000)
  --live-duration S   seconds per live run (default 8)
  --limited-devices N devices for the run under the default DEVICE_RATE_LIMIT=50 (default 400)
  --profile           run each server child with --cpu-prof and print where its time goes
  --no-perf           do not count fsyncs with perf stat
  --quiet-wait S      before each measured run, wait up to S s (default 10) for other processes to use
                      < 0.25 core (the machine is shared); runs measured anyway are flagged
  --json FILE         also write every run's numbers to FILE
  --server-dir DIR    run the server from another checkout of the project (with its node_modules),
                      e.g. an older commit extracted with git archive, to compare versions`);
  process.exit(0);
}

const RUNS = Number(argv.runs);
const DURATION_S = Number(argv.duration);
const WARMUP_S = Number(argv.warmup);
const CONNECTIONS = Number(argv.connections);
const BATCH = Number(argv.batch);
const MQTT_CLIENTS = Number(argv['mqtt-clients']);
const MQTT_WINDOW = Number(argv['mqtt-window']);
const LIVE_SOCKETS = Number(argv['live-sockets']);
const LIVE_DEVICES = Number(argv['live-devices']);
const LIVE_RATE = Number(argv['live-rate']);
const LIVE_DURATION_S = Number(argv['live-duration']);
const LIMITED_DEVICES = Number(argv['limited-devices']);
const ALL = ['storage', 'ceiling', 'http1', 'http1-limited', 'batch', 'mqtt', 'live'] as const;
type Scenario = (typeof ALL)[number];
const only = new Set((argv.only ?? ALL.join(',')).split(',').map((s) => s.trim()));
for (const s of only) if (!(ALL as readonly string[]).includes(s)) throw new Error(`--only: unknown scenario "${s}" (${ALL.join(', ')})`);
const want = (s: Scenario) => only.has(s);
const QUIET_WAIT_S = Number(argv['quiet-wait']);
const NCPU = os.cpus().length;
const USE_PERF = !argv['no-perf'] && perfAvailable();
const SERVER_DIR = argv['server-dir'] ? path.resolve(argv['server-dir']) : undefined;
const PROFILE_DIR = argv.profile ? fs.mkdtempSync(path.join(os.tmpdir(), 'agua-bench-prof-')) : undefined;

// ---------------------------------------------------------------------------------------------
// Measuring one run: server CPU, load generator CPU, fsyncs, and the window for the profile.

type Metrics = Record<string, number>;
interface Figure {
  key: string;
  runs: Metrics[];
}
const figures = new Map<string, Figure>();
const notes: string[] = [];
const checks: Array<{ name: string; ok: boolean; detail: string }> = [];
const profileWindows = new Map<string, Array<[number, number]>>();
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

function record(key: string, m: Metrics): void {
  const f = figures.get(key) ?? { key, runs: [] };
  f.runs.push(m);
  figures.set(key, f);
}

/** CPU (in cores) that processes other than the server child and this bench use, over `ms`. */
async function othersCores(srv: RunningServer, ms: number): Promise<number> {
  const m0 = machineCpuTicks();
  const s0 = srv.child.cpuSeconds();
  const b0 = selfCpuSeconds();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, ms));
  const wall = (performance.now() - t0) / 1000;
  const m1 = machineCpuTicks();
  const machine = ((m1.busy - m0.busy) / (m1.total - m0.total)) * NCPU;
  return Math.max(0, machine - (srv.child.cpuSeconds() - s0) / wall - (selfCpuSeconds() - b0) / wall);
}

const QUIET_CORES = 0.25;
/** The machine is shared: waits (up to --quiet-wait) until other processes leave it nearly idle. */
async function waitForQuiet(srv: RunningServer): Promise<void> {
  const deadline = Date.now() + QUIET_WAIT_S * 1000;
  let others = await othersCores(srv, 500);
  if (others < QUIET_CORES) return;
  process.stdout.write(`  (other processes use ${others.toFixed(2)} cores: waiting up to ${QUIET_WAIT_S} s for a quiet machine`);
  while (others >= QUIET_CORES && Date.now() < deadline) {
    others = await othersCores(srv, 1000);
    process.stdout.write('.');
  }
  process.stdout.write(others < QUIET_CORES ? ' quiet)\n' : ` still ${others.toFixed(2)} cores, measuring anyway)\n`);
}

async function measured<T>(srv: RunningServer, profileKey: string, fn: () => Promise<T>): Promise<{ result: T; extra: Metrics }> {
  if (QUIET_WAIT_S > 0) await waitForQuiet(srv);
  const counter = USE_PERF ? new FsyncCounter() : null;
  counter?.start(srv.child.pid);
  if (counter) await new Promise((r) => setTimeout(r, 150)); // let perf attach
  const cpu0 = srv.child.cpuSeconds();
  const sys0 = srv.child.cpuTimes().system;
  const wb0 = srv.child.writeBytes();
  const self0 = selfCpuSeconds();
  const m0 = machineCpuTicks();
  const t0 = performance.now();
  const w0 = nowUs();
  const result = await fn();
  const w1 = nowUs();
  const wall = (performance.now() - t0) / 1000;
  const serverCpu = (srv.child.cpuSeconds() - cpu0) / wall;
  const serverSys = (srv.child.cpuTimes().system - sys0) / wall;
  const diskBytesPerS = (srv.child.writeBytes() - wb0) / wall;
  const benchCpu = (selfCpuSeconds() - self0) / wall;
  const m1 = machineCpuTicks();
  const machineCpu = (m1.busy - m0.busy) / (m1.total - m0.total);
  const otherCores = Math.max(0, machineCpu * NCPU - serverCpu - benchCpu);
  const fsyncs = counter ? await counter.stop() : NaN;
  const windows = profileWindows.get(profileKey) ?? [];
  windows.push([w0, w1]);
  profileWindows.set(profileKey, windows);
  return { result, extra: { serverCpu, serverSysShare: serverSys / serverCpu, benchCpu, machineCpu, otherCores, diskBytesPerS, fsyncsPerS: fsyncs / wall } };
}

function cpuText(extra: Metrics): string {
  const others = extra.otherCores!;
  return (
    `CPU server ${fmtPct(extra.serverCpu!)} (${fmtPct(extra.serverSysShare!)} of it in the kernel), bench ${fmtPct(extra.benchCpu!)}, others ${others.toFixed(2)} cores` +
    (others >= QUIET_CORES ? ' [CONTENDED]' : '')
  );
}

/** The code under test: the commit, and how many files of the server and shared differ from it. */
function codeVersion(): string {
  if (SERVER_DIR) return `server from ${SERVER_DIR}`;
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    const head = git('log', '-1', '--format=%h %cI %s');
    const dirty = git('status', '--porcelain', '--', 'apps/server', 'packages/shared').split('\n').filter(Boolean).length;
    return `${head}${dirty > 0 ? ` + ${dirty} uncommitted file(s) in apps/server, packages/shared` : ''}`;
  } catch {
    return 'unknown (no git)';
  }
}

async function diskProbe(when: string): Promise<string> {
  const tmp = os.tmpdir();
  const sync = diskSyncLatencyMs(tmp);
  const sq = await sqliteCommitProbe(tmp);
  return (
    `disk (${when}): write 4 KiB + fdatasync p50 ${fmtMs(sync.p50)}, p99 ${fmtMs(sync.p99)}; ` +
    `SQLite WAL+FULL one-row commits: ${fmtInt(sq.commitsPerS)}/s, mean ${fmtMs(sq.meanMs)}, p99 ${fmtMs(sq.p99Ms)}`
  );
}

function say(line: string): void {
  process.stdout.write(line + '\n');
}

// ---------------------------------------------------------------------------------------------
// Verification: after the server stopped, the readings table must hold what was acknowledged.

function storedReadings(dataDir: string, prefix: string): number {
  const db = new Database(path.join(dataDir, 'agua.db'), { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare(`SELECT COUNT(*) AS n FROM readings WHERE device_id LIKE ? || '\\_%' ESCAPE '\\'`).get(prefix) as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}

async function stopAndCheck(
  srv: RunningServer,
  scenario: string,
  prefix: string,
  acknowledged: number,
  maxUnacknowledged: number,
): Promise<void> {
  const code = await srv.child.stop();
  if (code !== 0) notes.push(`${scenario}: server exited with code ${code}; log tail:\n${srv.child.log().slice(-2000)}`);
  const warnings = srv.child.log().trim();
  if (warnings) notes.push(`${scenario}: server printed:\n${warnings.slice(-1500)}`);
  const stored = storedReadings(srv.dataDir!, prefix);
  const ok = stored >= acknowledged && stored - acknowledged <= maxUnacknowledged;
  const detail =
    maxUnacknowledged === 0
      ? `stored ${fmtInt(stored)} readings, acknowledged ${fmtInt(acknowledged)}`
      : `stored ${fmtInt(stored)} readings, acknowledged ${fmtInt(acknowledged)}, ${fmtInt(stored - acknowledged)} more sent but cut off in flight at the end of a run (allowed ≤ ${fmtInt(maxUnacknowledged)})`;
  checks.push({ name: scenario, ok, detail });
  say(`  check ${ok ? 'OK  ' : 'FAIL'} ${detail}`);
  collectProfile(srv, scenario);
  fs.rmSync(srv.dataDir!, { recursive: true, force: true });
}

const profileReports: string[] = [];
function collectProfile(srv: RunningServer, scenario: string): void {
  if (!srv.child.opts.cpuProfDir) return;
  const dir = srv.child.opts.cpuProfDir;
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  if (files.length === 0) {
    profileReports.push(`--- ${scenario}: no .cpuprofile written in ${dir}`);
    return;
  }
  const file = path.join(dir, files[0]!);
  profileReports.push(formatSummary(`${scenario} (${file})`, summarizeProfile(file, profileWindows.get(scenario) ?? [])));
}

function profDirFor(scenario: string): string | undefined {
  if (!PROFILE_DIR) return undefined;
  const d = path.join(PROFILE_DIR, scenario);
  fs.mkdirSync(d, { recursive: true });
  return d;
}

// ---------------------------------------------------------------------------------------------
// HTTP figures (autocannon)

function httpLine(label: string, i: number, r: HttpLoadResult, extra: Metrics, batch: number): string {
  const bad = r.non2xx + r.errors + r.timeouts;
  return (
    `  ${label} run ${i + 1}: ${fmtInt(r.reqPerS)} req/s` +
    (batch > 1 ? ` = ${fmtInt(r.readingsPerS)} readings/s` : '') +
    `, p50 ${fmtMs(r.p50)}, p99 ${fmtMs(r.p99)}, ${cpuText(extra)}` +
    (Number.isFinite(extra.fsyncsPerS) ? `, ${fmtInt(extra.fsyncsPerS!)} fsync/s` : '') +
    (extra.diskBytesPerS! > 0 ? `, disk ${fmtInt(extra.diskBytesPerS! / 1024)} KiB/s = ${fmtInt(extra.diskBytesPerS! / r.readingsPerS)} B/reading` : '') +
    (bad > 0 ? `, NOT 2xx: ${JSON.stringify(r.statusCodes)} errors ${r.errors} timeouts ${r.timeouts}` : '')
  );
}

/** A ceiling figure measured alongside a real one, run for run, so both see the same machine. */
interface Pair {
  srv: RunningServer;
  key: string;
}

function recordHttp(key: string, r: HttpLoadResult, extra: Metrics, more: Metrics = {}): void {
  record(key, {
    reqPerS: r.reqPerS,
    readingsPerS: r.readingsPerS,
    p50: r.p50,
    p99: r.p99,
    not2xx: r.non2xx + r.errors + r.timeouts,
    duplicates: r.duplicatesSum,
    readingsPerFsync: r.readingsPerS / extra.fsyncsPerS!,
    cpuUs: (extra.serverCpu! / r.readingsPerS) * 1e6,
    diskBytes: extra.diskBytesPerS! / r.readingsPerS,
    ...extra,
    ...more,
  });
}

/**
 * Warm-up + measured runs of one HTTP load shape; with a ceiling pair, a ceiling run goes right
 * before each measured run. Returns the acknowledged readings (incl. warm-up).
 */
async function httpFigure(
  srv: RunningServer,
  key: string,
  profileKey: string,
  devices: BenchDevice[],
  batch: number,
  opts: { rotateDevices?: boolean; pair?: Pair } = {},
): Promise<{ acknowledged: number; invocations: number }> {
  const base = { baseUrl: srv.httpUrl, connections: CONNECTIONS, batchSize: batch, devices, rotateDevices: opts.rotateDevices ?? false };
  const pair = opts.pair;
  const ceilBase = pair ? { ...base, baseUrl: pair.srv.httpUrl, devices: fakeDevices('ceil', CONNECTIONS), rotateDevices: false } : null;
  let acknowledged = 0;
  if (ceilBase) await runHttpLoad({ ...ceilBase, durationS: WARMUP_S });
  const warm = await runHttpLoad({ ...base, durationS: WARMUP_S });
  acknowledged += warm.acceptedSum;
  for (let i = 0; i < RUNS; i++) {
    let ceil: HttpLoadResult | null = null;
    if (pair && ceilBase) {
      const m = await measured(pair.srv, 'ceiling', () => runHttpLoad({ ...ceilBase, durationS: DURATION_S }));
      ceil = m.result;
      say(httpLine(pair.key, i, m.result, m.extra, batch));
      recordHttp(pair.key, m.result, m.extra);
    }
    const { result: r, extra } = await measured(srv, profileKey, () => runHttpLoad({ ...base, durationS: DURATION_S }));
    acknowledged += r.acceptedSum;
    say(httpLine(key, i, r, extra, batch));
    recordHttp(key, r, extra, ceil ? { vsCeiling: r.reqPerS / ceil.reqPerS, p99VsCeiling: r.p99 / ceil.p99 } : {});
  }
  return { acknowledged, invocations: RUNS + 1 };
}

function fakeDevices(prefix: string, n: number): BenchDevice[] {
  return Array.from({ length: n }, (_, i) => ({ id: `${prefix}_${String(i).padStart(3, '0')}`, key: `k${i}`, boot: 'c0ffee00', seq: 0 }));
}

// ---------------------------------------------------------------------------------------------
// Scenarios

const STORAGE_GROUPS = [25, 5000];
async function storage(): Promise<void> {
  say(`\n[storage] the server's SqliteReadingsWriter alone (real schema, WAL + synchronous=FULL), transactions of ${STORAGE_GROUPS.join(' and ')} readings, in this process`);
  const probe = await openStorageProbe({ synchronous: 'FULL' });
  try {
    for (const n of STORAGE_GROUPS) {
      probe.run(n, Math.min(WARMUP_S, 1));
      for (let i = 0; i < RUNS; i++) {
        const wb0 = processWriteBytes(process.pid);
        const r = probe.run(n, Math.min(DURATION_S, 2));
        const diskBytes = (processWriteBytes(process.pid) - wb0) / r.readings;
        say(
          `  storage-${n} run ${i + 1}: ${fmtInt(r.readingsPerS)} readings/s, ${fmtInt(r.commitsPerS)} commits/s, commit mean ${fmtMs(r.meanMs)}, p99 ${fmtMs(r.p99Ms)}, CPU ${r.cpuUsPerReading.toFixed(1)} µs/reading, disk ${fmtInt(diskBytes)} B/reading`,
        );
        record(`storage-${n}`, { readingsPerS: r.readingsPerS, p50: r.meanMs, p99: r.p99Ms, cpuUs: r.cpuUsPerReading, diskBytes });
      }
    }
  } finally {
    await probe.close();
  }
}

/** The ceiling server, kept running while the figures it is paired with are measured. */
let ceilingSrv: RunningServer | null = null;

/** Only when the ceiling is measured without any figure to pair it with. */
async function ceiling(): Promise<void> {
  say(`\n[ceiling] bare Fastify 5 route (202 {}) and bare Aedes broker, same load generator settings`);
  const srv = await startCeilingServer({ cpuProfDir: profDirFor('ceiling') });
  try {
    const devs = fakeDevices('ceil', CONNECTIONS);
    await httpFigure(srv, 'ceiling-1', 'ceiling', devs, 1);
    await httpFigure(srv, `ceiling-${BATCH}`, 'ceiling', devs, BATCH);
    const fleet = await MqttFleet.connect(srv.mqttPort, fakeDevices('ceilmq', MQTT_CLIENTS), { authenticate: false });
    await mqttRuns(srv, fleet, 'ceiling-mqtt', 'ceiling');
    await fleet.close();
  } finally {
    await srv.child.stop();
    collectProfile(srv, 'ceiling');
  }
}

async function http1(limited: boolean): Promise<void> {
  const scenario = limited ? 'http1-limited' : 'http1';
  const nDevices = limited ? LIMITED_DEVICES : CONNECTIONS;
  say(
    limited
      ? `\n[${scenario}] HTTP single readings, ${CONNECTIONS} connections, DEVICE_RATE_LIMIT=50 (default), ${nDevices} devices round robin`
      : `\n[${scenario}] HTTP single readings, ${CONNECTIONS} connections, one device each, DEVICE_RATE_LIMIT=0`,
  );
  const srv = await startAguaServer({ cpuProfDir: profDirFor(scenario), env: limited ? { DEVICE_RATE_LIMIT: '50' } : {}, serverDir: SERVER_DIR });
  try {
    const admin = await signIn(srv.httpUrl, ADMIN);
    const devices = await registerDevices(srv.httpUrl, admin, 'bench_http', nDevices);
    const { acknowledged, invocations } = await httpFigure(srv, scenario, scenario, devices, 1, {
      rotateDevices: limited,
      ...(ceilingSrv ? { pair: { srv: ceilingSrv, key: 'ceiling-1' } } : {}),
    });
    await stopAndCheck(srv, scenario, 'bench_http', acknowledged, invocations * CONNECTIONS);
  } finally {
    await disposeServer(srv);
  }
}

async function batch(): Promise<void> {
  say(`\n[batch] HTTP batches of ${BATCH} readings, ${CONNECTIONS} connections, one device each, DEVICE_RATE_LIMIT=0`);
  const srv = await startAguaServer({ cpuProfDir: profDirFor('batch'), serverDir: SERVER_DIR });
  try {
    const admin = await signIn(srv.httpUrl, ADMIN);
    const devices = await registerDevices(srv.httpUrl, admin, 'bench_batch', CONNECTIONS);
    const { acknowledged, invocations } = await httpFigure(srv, `batch-${BATCH}`, 'batch', devices, BATCH, {
      ...(ceilingSrv ? { pair: { srv: ceilingSrv, key: `ceiling-${BATCH}` } } : {}),
    });
    await stopAndCheck(srv, 'batch', 'bench_batch', acknowledged, invocations * CONNECTIONS * BATCH);
  } finally {
    await disposeServer(srv);
  }
}

function mqttLine(key: string, i: number, r: MqttLoadResult, extra: Metrics): string {
  return (
    `  ${key} run ${i + 1}: ${fmtInt(r.msgsPerS)} msg/s, PUBACK p50 ${fmtMs(r.p50)}, p99 ${fmtMs(r.p99)}, ${cpuText(extra)}` +
    (Number.isFinite(extra.fsyncsPerS) ? `, ${fmtInt(extra.fsyncsPerS!)} fsync/s` : '') +
    (extra.diskBytesPerS! > 0 ? `, disk ${fmtInt(extra.diskBytesPerS! / 1024)} KiB/s = ${fmtInt(extra.diskBytesPerS! / r.msgsPerS)} B/reading` : '') +
    (r.refusals + r.publishErrors > 0 ? `, REFUSED ${r.refusals}, publish errors ${r.publishErrors}` : '')
  );
}

function recordMqtt(key: string, r: MqttLoadResult, extra: Metrics, more: Metrics = {}): void {
  record(key, {
    msgsPerS: r.msgsPerS,
    p50: r.p50,
    p99: r.p99,
    refused: r.refusals + r.publishErrors,
    readingsPerFsync: r.msgsPerS / extra.fsyncsPerS!,
    cpuUs: (extra.serverCpu! / r.msgsPerS) * 1e6,
    diskBytes: extra.diskBytesPerS! / r.msgsPerS,
    ...extra,
    ...more,
  });
}

async function mqttRuns(
  srv: RunningServer,
  fleet: MqttFleet,
  key: string,
  profileKey: string,
  pair?: { srv: RunningServer; fleet: MqttFleet; key: string },
): Promise<number> {
  let acknowledged = 0;
  if (pair) await pair.fleet.run(WARMUP_S, MQTT_WINDOW);
  const warm = await fleet.run(WARMUP_S, MQTT_WINDOW);
  acknowledged += warm.acked + warm.drained;
  for (let i = 0; i < RUNS; i++) {
    let ceil: MqttLoadResult | null = null;
    if (pair) {
      const m = await measured(pair.srv, 'ceiling', () => pair.fleet.run(DURATION_S, MQTT_WINDOW));
      ceil = m.result;
      say(mqttLine(pair.key, i, m.result, m.extra));
      recordMqtt(pair.key, m.result, m.extra);
    }
    const { result: r, extra } = await measured(srv, profileKey, () => fleet.run(DURATION_S, MQTT_WINDOW));
    acknowledged += r.acked + r.drained;
    say(mqttLine(key, i, r, extra));
    recordMqtt(key, r, extra, ceil ? { vsCeiling: r.msgsPerS / ceil.msgsPerS, p99VsCeiling: r.p99 / ceil.p99 } : {});
  }
  return acknowledged;
}

async function mqttScenario(): Promise<void> {
  say(`\n[mqtt] MQTT QoS 1, ${MQTT_CLIENTS} devices (mqtt.js), ${MQTT_WINDOW} messages in flight each, DEVICE_RATE_LIMIT=0`);
  const srv = await startAguaServer({ cpuProfDir: profDirFor('mqtt'), serverDir: SERVER_DIR });
  try {
    const admin = await signIn(srv.httpUrl, ADMIN);
    const devices = await registerDevices(srv.httpUrl, admin, 'bench_mqtt', MQTT_CLIENTS);
    const fleet = await MqttFleet.connect(srv.mqttPort, devices, { authenticate: true });
    const ceilFleet = ceilingSrv ? await MqttFleet.connect(ceilingSrv.mqttPort, fakeDevices('ceilmq', MQTT_CLIENTS), { authenticate: false }) : null;
    const acknowledged = await mqttRuns(srv, fleet, 'mqtt', 'mqtt', ceilingSrv && ceilFleet ? { srv: ceilingSrv, fleet: ceilFleet, key: 'ceiling-mqtt' } : undefined);
    if (fleet.outstanding() > 0) notes.push(`mqtt: ${fleet.outstanding()} publishes still without PUBACK after 30 s`);
    await fleet.close();
    await ceilFleet?.close();
    await stopAndCheck(srv, 'mqtt', 'bench_mqtt', acknowledged, 0);
  } finally {
    await disposeServer(srv);
  }
}

async function live(): Promise<void> {
  const hz = LIVE_RATE / LIVE_DEVICES;
  say(`\n[live] device → browser: ${LIVE_RATE} readings/s over HTTP (${LIVE_DEVICES} devices × ${hz}/s), ${LIVE_SOCKETS} live sockets, DEVICE_RATE_LIMIT=0`);
  const srv = await startAguaServer({ cpuProfDir: profDirFor('live'), serverDir: SERVER_DIR });
  try {
    const admin = await signIn(srv.httpUrl, ADMIN);
    const devices = await registerDevices(srv.httpUrl, admin, 'bench_live', LIVE_DEVICES);
    const viewer = await signIn(srv.httpUrl, VIEWER);
    const bench = new LiveLatencyBench(srv.httpUrl, devices);
    await bench.openSockets(LIVE_SOCKETS, viewer);
    let acknowledged = 0;
    const warm = await bench.run(WARMUP_S, hz, LIVE_SOCKETS);
    acknowledged += warm.ok;
    for (let i = 0; i < RUNS; i++) {
      const { result: r, extra } = await measured(srv, 'live', () => bench.run(LIVE_DURATION_S, hz, LIVE_SOCKETS));
      acknowledged += r.ok;
      const deliveredShare = r.delivered / r.expected;
      say(
        `  live run ${i + 1}: sent ${fmtInt(r.sendRate)} readings/s (${r.failed} failed), frames delivered ${fmtPct(deliveredShare)} of reading×socket, latency p50 ${fmtMs(r.p50)}, p99 ${fmtMs(r.p99)}, max ${fmtMs(r.max)} (POST→202 p99 ${fmtMs(r.postP99)}), ${cpuText(extra)}`,
      );
      record('live', {
        sendRate: r.sendRate,
        p50: r.p50,
        p99: r.p99,
        max: r.max,
        postP99: r.postP99,
        delivered: deliveredShare,
        failed: r.failed,
        cpuUs: (extra.serverCpu! / r.sendRate) * 1e6,
        ...extra,
      });
    }
    await bench.close();
    await stopAndCheck(srv, 'live', 'bench_live', acknowledged, 0);
  } finally {
    await disposeServer(srv);
  }
}

// ---------------------------------------------------------------------------------------------
// Report

function med(key: string, metric: string): number {
  const f = figures.get(key);
  return f ? median(f.runs.map((r) => r[metric]!)) : NaN;
}

function mark(ok: boolean | null): string {
  return ok === null ? '' : ok ? 'PASS' : 'MISS';
}

function report(): void {
  const rows: string[][] = [];
  const c1 = med('ceiling-1', 'reqPerS');
  const c1p99 = med('ceiling-1', 'p99');
  const cb = med(`ceiling-${BATCH}`, 'reqPerS');
  const cm = med('ceiling-mqtt', 'msgsPerS');
  const n = (key: string) => {
    const runs = figures.get(key)?.runs ?? [];
    const contended = runs.filter((r) => (r.otherCores ?? 0) >= QUIET_CORES).length;
    return contended > 0 ? `${runs.length} (${contended} contended)` : `${runs.length}`;
  };
  // Ratio to the ceiling: the median of the run-by-run ratios when paired, else of the medians.
  const vs = (key: string, metric: string, fallback: number) => {
    const v = med(key, metric);
    return Number.isFinite(v) ? v : fallback;
  };
  const cpu = (key: string) =>
    Number.isFinite(med(key, 'serverCpu')) ? `${fmtPct(med(key, 'serverCpu'))} / ${fmtPct(med(key, 'benchCpu'))} / ${med(key, 'otherCores').toFixed(2)}` : '—';
  const us = (key: string) => (Number.isFinite(med(key, 'cpuUs')) ? `${med(key, 'cpuUs').toFixed(1)} µs` : '—');
  const perFsync = (key: string) => (Number.isFinite(med(key, 'readingsPerFsync')) ? fmtInt(med(key, 'readingsPerFsync')) : '—');
  const disk = (key: string) => (Number.isFinite(med(key, 'diskBytes')) ? `${fmtInt(med(key, 'diskBytes'))} B` : '—');
  const row = (key: string, label: string, throughput: string, vs: string, target: string, ok: boolean | null) =>
    rows.push([label, throughput, fmtMs(med(key, 'p50')), fmtMs(med(key, 'p99')), vs, target, mark(ok), us(key), cpu(key), perFsync(key), disk(key), n(key)]);

  for (const g of STORAGE_GROUPS) {
    const key = `storage-${g}`;
    if (figures.has(key)) row(key, `Storage alone: ${g} readings/commit (latency = commit)`, `${fmtInt(med(key, 'readingsPerS'))} readings/s`, '', '', null);
  }
  if (figures.has('ceiling-1')) row('ceiling-1', 'Ceiling: bare Fastify, 1-reading body', `${fmtInt(c1)} req/s`, '1.00×', '', null);
  if (figures.has(`ceiling-${BATCH}`)) row(`ceiling-${BATCH}`, `Ceiling: bare Fastify, ${BATCH}-reading body`, `${fmtInt(cb)} req/s`, '1.00×', '', null);
  if (figures.has('ceiling-mqtt')) row('ceiling-mqtt', 'Ceiling: bare Aedes, QoS 1', `${fmtInt(cm)} msg/s`, '1.00×', '', null);
  for (const key of ['http1', 'http1-limited']) {
    if (!figures.has(key)) continue;
    const rps = med(key, 'readingsPerS');
    const p99 = med(key, 'p99');
    const label =
      key === 'http1'
        ? `HTTP 1 reading/req, ${CONNECTIONS} conn, ${CONNECTIONS} devices, limit 0`
        : `HTTP 1 reading/req, ${CONNECTIONS} conn, ${LIMITED_DEVICES} devices, limit 50/s`;
    row(key, label, `${fmtInt(rps)} readings/s`, `${fmtRatio(vs(key, 'vsCeiling', rps / c1))} (p99 ${fmtRatio(vs(key, 'p99VsCeiling', p99 / c1p99))})`, '≥ 10,000/s, p99 < 50 ms', rps >= 10_000 && p99 < 50);
  }
  const bk = `batch-${BATCH}`;
  if (figures.has(bk)) {
    const rps = med(bk, 'readingsPerS');
    row(bk, `HTTP batch of ${BATCH}, ${CONNECTIONS} conn, limit 0`, `${fmtInt(rps)} readings/s`, `${fmtRatio(vs(bk, 'vsCeiling', med(bk, 'reqPerS') / cb))} of req/s`, '≥ 150,000/s', rps >= 150_000);
  }
  if (figures.has('mqtt')) {
    const mps = med('mqtt', 'msgsPerS');
    row('mqtt', `MQTT QoS 1, ${MQTT_CLIENTS} clients × ${MQTT_WINDOW} in flight`, `${fmtInt(mps)} msg/s`, fmtRatio(vs('mqtt', 'vsCeiling', mps / cm)), '≥ 20,000/s', mps >= 20_000);
  }
  if (figures.has('live')) {
    const p99 = med('live', 'p99');
    row(
      'live',
      `Live: POST → WS frame, ${fmtInt(med('live', 'sendRate'))} readings/s, ${LIVE_SOCKETS} sockets`,
      `${fmtPct(med('live', 'delivered'))} delivered`,
      '',
      'p99 < 100 ms',
      p99 < 100,
    );
  }
  say(`\n=== Results: medians of ${RUNS} runs (${DURATION_S} s each; live ${LIVE_DURATION_S} s; storage 2 s), each after a ${WARMUP_S} s warm-up ===`);
  say(table(['Figure', 'Throughput', 'p50', 'p99', 'vs ceiling', 'Target', '', 'srv CPU/reading', 'CPU srv/bench/others', 'items/fsync', 'disk/item', 'runs'], rows));
  say(`srv CPU/reading: CPU time (user + system, all threads) the server child spent per reading (per request for the ceiling with 1 reading, per message for MQTT): less sensitive than throughput to fsync waits and to other processes, not immune to them.`);
  say(
    `CPU srv/bench/others: share of one core used by the server child / by this load generator, and cores used by other processes on this ${NCPU}-core machine, during the runs (others ≥ ${QUIET_CORES} = contended run).`,
  );
  say(`items/fsync: acknowledged readings per fsync of the server (perf stat), ≈ readings per group commit (checkpoints add fsyncs).`);
  say(`disk/item: bytes the server wrote to storage per reading (/proc/<pid>/io write_bytes: WAL + checkpoints).`);
  if (checks.length > 0) {
    say(`\nVerification (readings table, read-only, after the server stopped):`);
    for (const c of checks) say(`  ${c.ok ? 'OK  ' : 'FAIL'} ${c.name}: ${c.detail}`);
  }
  const bad = [...figures.values()].reduce((s, f) => s + f.runs.reduce((a, r) => a + (r.duplicates ?? 0) + (r.not2xx ?? 0) + (r.refused ?? 0) + (r.failed ?? 0), 0), 0);
  say(bad > 0 ? `  NOTE: ${bad} answers were not plain successes (non-2xx, duplicates, refusals): see the run lines above.` : `  every answer in the measured runs was a success (2xx / PUBACK without refusal, no duplicates).`);
  for (const note of notes) say(`\nNOTE ${note}`);
  if (profileReports.length > 0) {
    say(`\n=== CPU profiles of the server child (--cpu-prof, samples inside the measured runs only) ===`);
    for (const p of profileReports) say(p + '\n');
  }
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const started = Date.now();
  const tmp = os.tmpdir();
  const sample = readingJson({ id: 'bench_http_000', key: '', boot: 'c0ffee00', seq: 1234 }, 2.345, Date.now());
  say(`Ingest bench — ${new Date().toISOString()}`);
  say(`machine: ${os.cpus()[0]?.model ?? '?'} × ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}, ${os.platform()} ${os.release()}`);
  say(`code: ${codeVersion()}`);
  say(`server data folder: ${tmp} on ${filesystemOf(tmp)}`);
  say(await diskProbe('before'));
  say(
    `load: autocannon ${CONNECTIONS} connections, pipelining 1; body ${Buffer.byteLength(sample)} B (1 reading), ` +
      `${Buffer.byteLength(batchJson({ id: 'bench_batch_000', key: '', boot: 'c0ffee00', seq: 1234 }, BATCH, Date.now()))} B (batch of ${BATCH}); ` +
      `fsync counting ${USE_PERF ? 'on (perf stat)' : 'off'}${PROFILE_DIR ? `; CPU profiles in ${PROFILE_DIR}` : ''}`,
  );
  say(`sample reading: ${sample}`);

  if (want('storage')) await storage();
  const paired = (['http1', 'http1-limited', 'batch', 'mqtt'] as const).some(want);
  if (want('ceiling') && !paired) await ceiling();
  if (want('ceiling') && paired) {
    ceilingSrv = await startCeilingServer({ cpuProfDir: profDirFor('ceiling') });
    say(`\n[ceiling] bare Fastify 5 route (202 {}) and bare Aedes broker (child process), measured run for run alongside each figure below`);
  }
  if (want('http1')) await http1(false);
  if (want('http1-limited')) await http1(true);
  if (want('batch')) await batch();
  if (want('mqtt')) await mqttScenario();
  if (ceilingSrv) {
    await ceilingSrv.child.stop();
    collectProfile(ceilingSrv, 'ceiling');
  }
  if (want('live')) await live();

  report();
  say(await diskProbe('after'));
  say(`\nbench took ${Math.round((Date.now() - started) / 1000)} s`);
  if (argv.json) {
    fs.writeFileSync(argv.json, JSON.stringify({ at: new Date().toISOString(), figures: Object.fromEntries(figures), checks, notes }, null, 2));
    say(`runs written to ${argv.json}`);
  }
  if (checks.some((c) => !c.ok)) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
