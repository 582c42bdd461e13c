/**
 * Ingest benchmark of the server (npm run bench:ingest; see tools/bench/README.md).
 *
 * The server under test runs in a child process (its own event loop); this process is the load
 * generator (autocannon for HTTP, mqtt.js for MQTT, worker threads for the live devices and
 * sockets) on the same machine. Every figure is the median of --runs measured runs, after one
 * warm-up run, each measured run right after a run of each ceiling its target is measured against.
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
import { RelaySubscriber, dynsecAvailable, mosquittoAvailable, mosquittoVersion, startDynsecMosquitto, startMosquitto } from './ingest/mosquitto';
import { formatSummary, summarizeProfile } from './ingest/profile-summary';
import { RawSqliteWriter } from './ingest/raw-sqlite';
import {
  type BenchDatabase,
  COPY_COMMAND,
  Composite,
  DEFAULT_PG_ADMIN_URL,
  PgCluster,
  PgCopyWriter,
  REAPED_CHILDREN,
  countReadings,
  createBenchDatabase,
  describeServer,
  dropAllBenchDatabases,
  pgCommitProbe,
  walProbe,
} from './ingest/postgres';
import { describeDatabase } from '../../apps/server/src/storage/postgres/postgres-storage';
import { openStorageProbe } from './ingest/storage-probe';
import {
  type Measurable,
  type RunningServer,
  cpuSecondsOf,
  disposeServer,
  filesystemOf,
  machineCpuTicks,
  processWriteBytes,
  REPO_ROOT,
  SELF,
  selfCpuSeconds,
  startAguaServer,
  startCeilingServer,
  stopAllChildren,
} from './ingest/server-process';
import { fmtInt, fmtMs, fmtPct, fmtRatio, median, sleep, table } from './ingest/stats';
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
    'live-sockets': { type: 'string', default: '1000' },
    'live-devices': { type: 'string', default: '50' },
    'live-rate': { type: 'string', default: '10000' },
    'live-duration': { type: 'string', default: '8' },
    'live-senders': { type: 'string', default: '1' },
    'live-receivers': { type: 'string', default: '2' },
    'live-probes': { type: 'string', default: '100' },
    'live-transport': { type: 'string', default: 'http' },
    'limited-devices': { type: 'string', default: '400' },
    profile: { type: 'boolean', default: false },
    'no-perf': { type: 'boolean', default: false },
    'quiet-wait': { type: 'string', default: '10' },
    json: { type: 'string' },
    'server-dir': { type: 'string' },
    database: { type: 'string', default: 'sqlite' },
    'pg-admin-url': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

if (argv.help) {
  console.log(`npm run bench:ingest -- [options]
  --runs N            measured runs per figure (default 3; the figure is their median)
  --duration S        seconds per HTTP/MQTT run (default 5)
  --warmup S          seconds of the unmeasured warm-up run before each figure (default 2)
  --only LIST         comma-separated subset of: storage,ceiling,http1,http1-limited,batch,mqtt,mqtt-external,live
                      (the ceilings a figure's target is measured against always run with it, run for
                      run; "ceiling" alone measures every ceiling on its own)
  --connections N     HTTP connections (default 50), one device each
  --batch N           readings per batch request (default 100)
  --mqtt-clients N    MQTT devices (default 10)   --mqtt-window N  in-flight QoS 1 per client (default 100)
  --live-sockets N    live WebSockets (default 1000) --live-devices N (default 50) --live-rate R readings/s (default 10000)
  --live-duration S   seconds per live run (default 8)
  --live-senders N    worker threads POSTing the live readings (default 1), devices split between them
  --live-receivers N  worker threads holding the live sockets (default 2), sockets split between them
  --live-probes N     live sockets that parse and time every frame (default 100); the others read
                      and drop the bytes (the server's work is the same; the bench's much less)
  --live-transport T  how the live devices send: http (POST, default) or mqtt (QoS 1, one session each)
  --limited-devices N devices for the run under the default DEVICE_RATE_LIMIT=50 (default 400)
  --profile           run each server child with --cpu-prof and print where its time goes
  --no-perf           do not count fsyncs with perf stat
  --quiet-wait S      before each measured run, wait up to S s (default 10) for other processes to use
                      < 0.25 core (the machine is shared); runs measured anyway are flagged
  --json FILE         also write every run's numbers to FILE
  --server-dir DIR    run the server from another checkout of the project (with its node_modules),
                      e.g. an older commit extracted with git archive, to compare versions
  --database ENGINE   sqlite (default: a fresh SQLite file per server) or postgres: each server on a
                      fresh database of its own (CREATE DATABASE agua_bench_<random>, DATABASE_URL,
                      dropped when that server is done); scenarios http1, http1-limited, batch, mqtt,
                      live, ceiling; the batch figure's ceiling is then psql \\copy of the same rows
                      into the same readings table (pg-copy), run after each batch run
  --pg-admin-url URL  superuser connection that creates and drops the databases
                      (default ${DEFAULT_PG_ADMIN_URL})`);
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
const LIVE_SENDERS = Number(argv['live-senders']);
const LIVE_RECEIVERS = Number(argv['live-receivers']);
const LIVE_PROBES = Math.min(Number(argv['live-probes']), LIVE_SOCKETS);
const LIVE_TRANSPORT = argv['live-transport'];
if (LIVE_TRANSPORT !== 'http' && LIVE_TRANSPORT !== 'mqtt') throw new Error(`--live-transport: http or mqtt, not "${LIVE_TRANSPORT}"`);
/** The server's MAX_LIVE_SOCKETS_PER_SESSION (features/live/live.routes.ts): the bench signs in once per this many sockets. */
const LIVE_SOCKETS_PER_SESSION = 16;
/** Keep-alive POST connections of the live devices, all sender threads together. */
const LIVE_POST_CONNECTIONS = 256;
const LIMITED_DEVICES = Number(argv['limited-devices']);
const ALL = ['storage', 'ceiling', 'http1', 'http1-limited', 'batch', 'mqtt', 'mqtt-external', 'live'] as const;
type Scenario = (typeof ALL)[number];
if (argv.database !== 'sqlite' && argv.database !== 'postgres') {
  console.error(`--database: "${argv.database}" is neither sqlite nor postgres`);
  process.exit(2);
}
/** The server runs on PostgreSQL (DATABASE_URL), one fresh database per server. */
const PG = argv.database === 'postgres';
const PG_ADMIN_URL = argv['pg-admin-url'] ?? DEFAULT_PG_ADMIN_URL;
/** Scenarios that have no meaning on PostgreSQL, and why. */
const NOT_ON_PG: Partial<Record<Scenario, string>> = {
  storage: 'it drives the server\'s SQLite writer on a SQLite file in this process; on PostgreSQL the batch figure\'s pg-copy ceiling is the storage-alone figure',
  'mqtt-external': 'not ported: it polls the SQLite file for the stored count while the broker holds the messages',
};
const only = new Set((argv.only ?? ALL.join(',')).split(',').map((s) => s.trim()));
for (const s of only) if (!(ALL as readonly string[]).includes(s)) throw new Error(`--only: unknown scenario "${s}" (${ALL.join(', ')})`);
/** Scenarios left out on PostgreSQL (printed in the header); named in --only, they are refused. */
const skippedOnPg: string[] = [];
if (PG) {
  for (const [s, why] of Object.entries(NOT_ON_PG)) {
    if (!only.has(s)) continue;
    if (argv.only !== undefined) {
      console.error(`--database postgres: scenario "${s}" is not available on PostgreSQL: ${why}`);
      process.exit(2);
    }
    only.delete(s);
    skippedOnPg.push(`${s} (${why})`);
  }
}
const want = (s: Scenario) => only.has(s);
const QUIET_WAIT_S = Number(argv['quiet-wait']);
/** The targets (issue text): throughput as a share of a ceiling measured alongside, and latencies. */
const TARGET = {
  http1VsFastify: 0.6,
  http1P99Ms: 10,
  batchVsRawSqlite: 1.0,
  mqttVsMosquitto: 0.7,
  externalVsMosquitto: 0.5,
  liveP99Ms: 50,
  liveRate: 10_000,
  liveSockets: 1_000,
  /** SCALE.md, on PostgreSQL: batches ≥ 0.5× COPY of the same rows, single readings ≥ 10,000/s. */
  batchVsPgCopy: 0.5,
  http1PgRate: 10_000,
} as const;
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

/** CPU (in cores) that processes other than `subject` and this bench use, over `ms`. */
async function othersCores(subject: Measurable, ms: number): Promise<number> {
  const m0 = machineCpuTicks();
  const s0 = cpuSecondsOf(subject);
  const b0 = selfCpuSeconds();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, ms));
  const wall = (performance.now() - t0) / 1000;
  const m1 = machineCpuTicks();
  const machine = ((m1.busy - m0.busy) / (m1.total - m0.total)) * NCPU;
  const bench = subject === SELF ? 0 : (selfCpuSeconds() - b0) / wall;
  return Math.max(0, machine - (cpuSecondsOf(subject) - s0) / wall - bench);
}

const QUIET_CORES = 0.25;
/** The machine is shared: waits (up to --quiet-wait) until other processes leave it nearly idle. */
async function waitForQuiet(subject: Measurable): Promise<void> {
  const deadline = Date.now() + QUIET_WAIT_S * 1000;
  let others = await othersCores(subject, 500);
  if (others < QUIET_CORES) return;
  process.stdout.write(`  (other processes use ${others.toFixed(2)} cores: waiting up to ${QUIET_WAIT_S} s for a quiet machine`);
  while (others >= QUIET_CORES && Date.now() < deadline) {
    others = await othersCores(subject, 1000);
    process.stdout.write('.');
  }
  process.stdout.write(others < QUIET_CORES ? ' quiet)\n' : ` still ${others.toFixed(2)} cores, measuring anyway)\n`);
}

/**
 * One measured run of `fn` against `subject` (a server child, Mosquitto, or this process for the
 * raw SQLite ceiling; then "server" CPU is this process's and "bench" CPU is 0).
 */
async function measured<T>(subject: Measurable, profileKey: string, fn: () => Promise<T>): Promise<{ result: T; extra: Metrics }> {
  if (QUIET_WAIT_S > 0) await waitForQuiet(subject);
  const counter = USE_PERF ? new FsyncCounter() : null;
  counter?.start(subject.pids?.() ?? [subject.pid]);
  if (counter) await new Promise((r) => setTimeout(r, 150)); // let perf attach
  const load1 = loadAverage()[0]!;
  await subject.probe?.begin();
  const benchCpuSeconds = () => (subject === SELF ? 0 : selfCpuSeconds());
  const parts = Object.entries(subject.parts ?? {});
  const parts0 = parts.map(([, p]) => cpuSecondsOf(p));
  const cpu0 = cpuSecondsOf(subject);
  const sys0 = subject.cpuTimes().system;
  const wb0 = subject.writeBytes();
  const self0 = benchCpuSeconds();
  const m0 = machineCpuTicks();
  const t0 = performance.now();
  const w0 = nowUs();
  const result = await fn();
  const w1 = nowUs();
  const wall = (performance.now() - t0) / 1000;
  const serverCpu = (cpuSecondsOf(subject) - cpu0) / wall;
  const serverSys = (subject.cpuTimes().system - sys0) / wall;
  const benchCpu = (benchCpuSeconds() - self0) / wall;
  const m1 = machineCpuTicks();
  const machineCpu = (m1.busy - m0.busy) / (m1.total - m0.total);
  const otherCores = Math.max(0, machineCpu * NCPU - serverCpu - benchCpu);
  const partsCpu: Metrics = {};
  parts.forEach(([name, p], i) => (partsCpu[`cpu ${name}`] = (cpuSecondsOf(p) - parts0[i]!) / wall));
  const probed = (await subject.probe?.end(wall)) ?? {};
  // On PostgreSQL what reaches the disk is its WAL (and, later, checkpoints): count the WAL.
  const diskBytesPerS = probed.walBytesPerS ?? (subject.writeBytes() - wb0) / wall;
  const fsyncs = counter ? await counter.stop() : NaN;
  const windows = profileWindows.get(profileKey) ?? [];
  windows.push([w0, w1]);
  profileWindows.set(profileKey, windows);
  return {
    result,
    extra: { serverCpu, serverSysShare: serverSys / serverCpu, benchCpu, machineCpu, otherCores, diskBytesPerS, fsyncsPerS: fsyncs / wall, load1, ...partsCpu, ...probed },
  };
}

/** /proc/loadavg: the 1, 5 and 15 minute load averages. */
function loadAverage(): number[] {
  try {
    return fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);
  } catch {
    return [NaN, NaN, NaN];
  }
}

function loadText(): string {
  return `load average ${loadAverage().map((l) => l.toFixed(2)).join(' ')} (1/5/15 min, ${NCPU} cores)`;
}

/** " (node 80%, postgres 60%)": each part of a composite subject. */
function partsText(extra: Metrics): string {
  const parts = Object.keys(extra).filter((k) => k.startsWith('cpu '));
  return parts.length > 0 ? ` (${parts.map((k) => `${k.slice(4)} ${fmtPct(extra[k]!)}`).join(', ')})` : '';
}

function cpuText(extra: Metrics): string {
  const others = extra.otherCores!;
  return (
    `CPU server ${fmtPct(extra.serverCpu!)}${partsText(extra)} (${fmtPct(extra.serverSysShare!)} of it in the kernel), bench ${fmtPct(extra.benchCpu!)}, others ${others.toFixed(2)} cores` +
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

/** Readings of the devices `<prefix>_…` the server stored: in its SQLite file, or its PostgreSQL database. */
async function storedReadingsOf(srv: RunningServer, prefix: string): Promise<number> {
  return srv.database ? countReadings(srv.database.url, prefix) : storedReadings(srv.dataDir!, prefix);
}

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
  const stored = await storedReadingsOf(srv, prefix);
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
// Ceilings: each one is measured right before each measured run of the figure it bounds, so that
// both see the same machine; the figure records its ratio to each (`vs <key>`, `p99 vs <key>`).

interface Bound {
  /** Readings (or messages) per second, and p99 latency, of the ceiling's run. */
  rate: number;
  p99: number;
}
interface Ceiling {
  key: string;
  /**
   * Measured right after each run of its figure instead of before, given the readings that run
   * stored (`rows`), so that it handles the same number of rows (pg-copy).
   */
  after?: boolean;
  warmUp(rows?: number): Promise<unknown>;
  /** One measured run, printed and recorded. */
  measure(i: number, rows?: number): Promise<Bound>;
  close(): Promise<void>;
}

const RAW_SQLITE = `raw-sqlite-${BATCH}`;
const PG_COPY = 'pg-copy';

async function measureCeilings(ceilings: Ceiling[], i: number): Promise<Map<string, Bound>> {
  const bounds = new Map<string, Bound>();
  for (const c of ceilings) if (!c.after) bounds.set(c.key, await c.measure(i));
  return bounds;
}

function versus(rate: number, p99: number, bounds: Map<string, Bound>): Metrics {
  const out: Metrics = {};
  for (const [key, b] of bounds) {
    out[`vs ${key}`] = rate / b.rate;
    out[`p99 vs ${key}`] = p99 / b.p99;
  }
  return out;
}

/** A ceiling measured on its own (`--only ceiling`): warm-up, then --runs measured runs. */
async function standalone(c: Ceiling): Promise<void> {
  await c.warmUp();
  for (let i = 0; i < RUNS; i++) await c.measure(i);
}

function fakeDevices(prefix: string, n: number): BenchDevice[] {
  return Array.from({ length: n }, (_, i) => ({ id: `${prefix}_${String(i).padStart(3, '0')}`, key: `k${i}`, boot: 'c0ffee00', seq: 0 }));
}

/** The bare Fastify route, loaded exactly like the HTTP figure of the same batch size. */
function fastifyCeiling(srv: RunningServer, batch: number): Ceiling {
  const key = `ceiling-${batch}`;
  const load = { baseUrl: srv.httpUrl, connections: CONNECTIONS, batchSize: batch, devices: fakeDevices('ceil', CONNECTIONS) };
  return {
    key,
    warmUp: () => runHttpLoad({ ...load, durationS: WARMUP_S }),
    async measure(i) {
      const { result: r, extra } = await measured(srv.child, 'ceiling', () => runHttpLoad({ ...load, durationS: DURATION_S }));
      say(httpLine(key, i, r, extra, batch));
      recordHttp(key, r, extra);
      return { rate: r.readingsPerS, p99: r.p99 };
    },
    close: async () => undefined,
  };
}

/** Plain better-sqlite3 writing the batch load's rows, one transaction per batch (in this process). */
function rawSqliteCeiling(): Ceiling {
  const writer = new RawSqliteWriter(fakeDevices('raw', CONNECTIONS), BATCH);
  return {
    key: RAW_SQLITE,
    warmUp: async () => writer.run(WARMUP_S),
    async measure(i) {
      const { result: r, extra } = await measured(SELF, RAW_SQLITE, async () => writer.run(DURATION_S));
      say(
        `  ${RAW_SQLITE} run ${i + 1}: ${fmtInt(r.readingsPerS)} readings/s, transaction p50 ${fmtMs(r.p50)}, p99 ${fmtMs(r.p99)}, CPU ${fmtPct(extra.serverCpu!)}, others ${extra.otherCores!.toFixed(2)} cores` +
          (extra.otherCores! >= QUIET_CORES ? ' [CONTENDED]' : '') +
          (Number.isFinite(extra.fsyncsPerS) ? `, ${fmtInt(extra.fsyncsPerS!)} fsync/s` : '') +
          (extra.diskBytesPerS! > 0 ? `, disk ${fmtInt(extra.diskBytesPerS! / r.readingsPerS)} B/reading` : ''),
      );
      record(RAW_SQLITE, {
        readingsPerS: r.readingsPerS,
        p50: r.p50,
        p99: r.p99,
        readingsPerFsync: r.readingsPerS / extra.fsyncsPerS!,
        cpuUs: (extra.serverCpu! / r.readingsPerS) * 1e6,
        diskBytes: extra.diskBytesPerS! / r.readingsPerS,
        ...extra,
      });
      return { rate: r.readingsPerS, p99: r.p99 };
    },
    close: async () => writer.close(),
  };
}

/** The processes of a server on PostgreSQL: the server child and the PostgreSQL cluster (with its WAL). */
function subjectOf(srv: RunningServer): Measurable {
  if (!srv.database || !pgCluster) return srv.child;
  return new Composite({ node: srv.child, postgres: pgCluster }, walProbe(PG_ADMIN_URL));
}
/** PostgreSQL's postmaster and its children (set in main on --database postgres). */
let pgCluster: PgCluster | null = null;
/** Probes opened by subjectOf, closed at the end. */
const openProbes = new Set<Measurable>();

/**
 * The ceiling of the batch figure on PostgreSQL: psql \copy of the rows the batch load sends
 * into the same readings table of the batch server's database (which idles meanwhile), as many
 * rows as the batch run just before stored (standalone: --duration × 100,000), from as many
 * devices (`pgcopy_ceil_NNN`, ids as long as the figure's, kept apart from its count). Rows/s
 * over psql's whole run (start, connection, COPY, commit, exit); the stream is made beforehand.
 */
function pgCopyCeiling(srv: RunningServer): Ceiling {
  const writer = new PgCopyWriter(srv.database!.url, fakeDevices('pgcopy_ceil', CONNECTIONS), BATCH);
  const subject = new Composite({ ...(pgCluster ? { postgres: pgCluster } : {}), psql: REAPED_CHILDREN }, walProbe(PG_ADMIN_URL));
  openProbes.add(subject);
  const rowsOf = (rows: number | undefined) => (rows && rows > 0 ? rows : Math.round(DURATION_S * 100_000));
  return {
    key: PG_COPY,
    after: true,
    warmUp: async (rows) => {
      const n = rowsOf(rows);
      return writer.copy(writer.rows(n), n);
    },
    async measure(i, rows) {
      const n = rowsOf(rows);
      const data = writer.rows(n);
      const { result: r, extra } = await measured(subject, PG_COPY, () => writer.copy(data, n));
      say(
        `  ${PG_COPY} run ${i + 1}: ${fmtInt(r.rowsPerS)} readings/s (${fmtInt(r.rows)} rows, ${fmtInt(data.length / 1024)} KiB of COPY text, in ${r.seconds.toFixed(2)} s), ` +
          `${cpuText(extra)}, WAL ${fmtInt(extra.diskBytesPerS! / r.rowsPerS)} B/reading`,
      );
      record(PG_COPY, {
        readingsPerS: r.rowsPerS,
        p50: NaN,
        p99: NaN,
        rows: r.rows,
        seconds: r.seconds,
        cpuUs: (extra.serverCpu! / r.rowsPerS) * 1e6,
        diskBytes: extra.diskBytesPerS! / r.rowsPerS,
        ...extra,
      });
      return { rate: r.rowsPerS, p99: NaN };
    },
    close: async () => undefined,
  };
}

/** A broker without storage, loaded exactly like the MQTT figure: bare Aedes, or Mosquitto. */
function mqttCeiling(key: string, profileKey: string, subject: Measurable, fleet: MqttFleet, relay?: RelaySubscriber): Ceiling {
  let published = 0;
  const run = async (durationS: number) => {
    const r = await fleet.run(durationS, MQTT_WINDOW);
    published += r.acked + r.drained;
    return r;
  };
  return {
    key,
    warmUp: () => run(WARMUP_S),
    async measure(i) {
      const before = (await relay?.received()) ?? 0;
      const { result: r, extra } = await measured(subject, profileKey, () => run(DURATION_S));
      let relayed = '';
      if (relay) {
        const inRun = (await relay.received()) - before;
        // Let the subscriber catch up, so that the next run does not start on a backlog.
        const all = await relay.drain(published);
        relayed = `, relayed to the subscriber by the end of the run ${fmtPct(inRun / (r.acked + r.drained))}${all < published ? `, NOT ALL after 30 s (${fmtInt(published - all)} missing)` : ''}`;
      }
      say(mqttLine(key, i, r, extra) + relayed);
      recordMqtt(key, r, extra);
      return { rate: r.msgsPerS, p99: r.p99 };
    },
    async close() {
      await fleet.close();
      await relay?.close();
    },
  };
}

/** Mosquitto relaying to one subscriber; null (and a note) when the Debian package is missing. */
async function mosquittoCeiling(): Promise<Ceiling | null> {
  if (!mosquittoAvailable()) {
    notes.push('mqtt: /usr/sbin/mosquitto is not installed (Debian package mosquitto): no Mosquitto ceiling, no verdict');
    return null;
  }
  const broker = await startMosquitto();
  try {
    const topic = 'agua/v1/+/telemetry';
    const relay = await RelaySubscriber.start(broker.port, topic);
    const fleet = await MqttFleet.connect(broker.port, fakeDevices('mosq', MQTT_CLIENTS), { authenticate: false });
    say(`  mosquitto: ${mosquittoVersion()} on port ${broker.port}, one mqtt.js subscriber on ${topic} (QoS 1)`);
    const ceiling = mqttCeiling('mosquitto', 'mosquitto', broker.child, fleet, relay);
    return { ...ceiling, close: () => ceiling.close().finally(() => broker.stop()) };
  } catch (err) {
    await broker.stop();
    throw err;
  }
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
    (extra.diskBytesPerS! > 0 ? `, ${extra.walBytesPerS === undefined ? 'disk' : 'WAL'} ${fmtInt(extra.diskBytesPerS! / 1024)} KiB/s = ${fmtInt(extra.diskBytesPerS! / r.readingsPerS)} B/reading` : '') +
    (bad > 0 ? `, NOT 2xx: ${JSON.stringify(r.statusCodes)} errors ${r.errors} timeouts ${r.timeouts}` : '')
  );
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
 * Warm-up + measured runs of one HTTP load shape, each measured run right after a run of each
 * ceiling. Returns the acknowledged readings (incl. warm-up).
 */
async function httpFigure(
  srv: RunningServer,
  key: string,
  profileKey: string,
  devices: BenchDevice[],
  batch: number,
  opts: { rotateDevices?: boolean; ceilings?: Ceiling[] } = {},
): Promise<{ acknowledged: number; invocations: number }> {
  const base = { baseUrl: srv.httpUrl, connections: CONNECTIONS, batchSize: batch, devices, rotateDevices: opts.rotateDevices ?? false };
  const ceilings = opts.ceilings ?? [];
  const subject = subjectOf(srv);
  openProbes.add(subject);
  let acknowledged = 0;
  for (const c of ceilings) if (!c.after) await c.warmUp();
  const warm = await runHttpLoad({ ...base, durationS: WARMUP_S });
  acknowledged += warm.acceptedSum;
  for (const c of ceilings) if (c.after) await c.warmUp(warm.acceptedSum);
  for (let i = 0; i < RUNS; i++) {
    const bounds = await measureCeilings(ceilings, i);
    const { result: r, extra } = await measured(subject, profileKey, () => runHttpLoad({ ...base, durationS: DURATION_S }));
    acknowledged += r.acceptedSum;
    say(httpLine(key, i, r, extra, batch));
    for (const c of ceilings) if (c.after) bounds.set(c.key, await c.measure(i, r.acceptedSum));
    recordHttp(key, r, extra, versus(r.readingsPerS, r.p99, bounds));
  }
  return { acknowledged, invocations: RUNS + 1 };
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

/** The ceiling server (bare Fastify, bare Aedes), kept running while the figures it bounds are measured. */
let ceilingSrv: RunningServer | null = null;

/**
 * A server under test, on a fresh SQLite folder, or with --database postgres on a fresh database
 * of its own (created here; disposeServer drops it).
 */
async function startServer(opts: { cpuProfDir?: string; env?: Record<string, string> }): Promise<RunningServer> {
  let database: BenchDatabase | undefined;
  if (PG) {
    database = await createBenchDatabase(PG_ADMIN_URL);
    say(`  database: ${describeDatabase(database.url)} (fresh, DATABASE_URL; dropped when this server is done)`);
  }
  return startAguaServer({ ...opts, serverDir: SERVER_DIR, ...(database ? { database } : {}) });
}

/** `--only ceiling` without any figure: every ceiling measured on its own. */
async function ceilings(): Promise<void> {
  say(
    `\n[ceiling] bare Fastify 5 route (202 {}), bare Aedes broker, ${PG ? 'psql \\copy into a server\'s readings table' : 'raw better-sqlite3'}, Mosquitto; same load generator settings as the figures`,
  );
  const srv = await startCeilingServer({ cpuProfDir: profDirFor('ceiling') });
  try {
    await standalone(fastifyCeiling(srv, 1));
    await standalone(fastifyCeiling(srv, BATCH));
    const aedes = mqttCeiling('ceiling-mqtt', 'ceiling', srv.child, await MqttFleet.connect(srv.mqttPort, fakeDevices('ceilmq', MQTT_CLIENTS), { authenticate: false }));
    await standalone(aedes).finally(() => aedes.close());
  } finally {
    await srv.child.stop();
    collectProfile(srv, 'ceiling');
  }
  if (PG) {
    // The readings table of a server's database (its migrations make it), the server idling.
    const server = await startServer({});
    try {
      await standalone(pgCopyCeiling(server));
    } finally {
      await disposeServer(server);
    }
  } else {
    const raw = rawSqliteCeiling();
    await standalone(raw).finally(() => raw.close());
  }
  const mosquitto = await mosquittoCeiling();
  if (mosquitto) await standalone(mosquitto).finally(() => mosquitto.close());
}

async function http1(limited: boolean): Promise<void> {
  const scenario = limited ? 'http1-limited' : 'http1';
  const nDevices = limited ? LIMITED_DEVICES : CONNECTIONS;
  say(
    limited
      ? `\n[${scenario}] HTTP single readings, ${CONNECTIONS} connections, DEVICE_RATE_LIMIT=50 (default), ${nDevices} devices round robin`
      : `\n[${scenario}] HTTP single readings, ${CONNECTIONS} connections, one device each, DEVICE_RATE_LIMIT=0`,
  );
  const srv = await startServer({ cpuProfDir: profDirFor(scenario), env: limited ? { DEVICE_RATE_LIMIT: '50' } : {} });
  try {
    const admin = await signIn(srv.httpUrl, ADMIN);
    const devices = await registerDevices(srv.httpUrl, admin, 'bench_http', nDevices);
    const { acknowledged, invocations } = await httpFigure(srv, scenario, scenario, devices, 1, {
      rotateDevices: limited,
      ceilings: [fastifyCeiling(ceilingSrv!, 1)],
    });
    await stopAndCheck(srv, scenario, 'bench_http', acknowledged, invocations * CONNECTIONS);
  } finally {
    await disposeServer(srv);
  }
}

async function batch(): Promise<void> {
  say(`\n[batch] HTTP batches of ${BATCH} readings, ${CONNECTIONS} connections, one device each, DEVICE_RATE_LIMIT=0`);
  const srv = await startServer({ cpuProfDir: profDirFor('batch') });
  // SQLite: raw better-sqlite3 before each run; PostgreSQL: psql \copy of as many rows after it.
  const raw = PG ? null : rawSqliteCeiling();
  try {
    if (PG) say(`  ${PG_COPY}: psql -c "${COPY_COMMAND}" into this server's database, after each batch run, as many rows as it stored`);
    const admin = await signIn(srv.httpUrl, ADMIN);
    const devices = await registerDevices(srv.httpUrl, admin, 'bench_batch', CONNECTIONS);
    const { acknowledged, invocations } = await httpFigure(srv, `batch-${BATCH}`, 'batch', devices, BATCH, {
      ceilings: [fastifyCeiling(ceilingSrv!, BATCH), raw ?? pgCopyCeiling(srv)],
    });
    await stopAndCheck(srv, 'batch', 'bench_batch', acknowledged, invocations * CONNECTIONS * BATCH);
  } finally {
    await raw?.close();
    await disposeServer(srv);
  }
}

function mqttLine(key: string, i: number, r: MqttLoadResult, extra: Metrics): string {
  return (
    `  ${key} run ${i + 1}: ${fmtInt(r.msgsPerS)} msg/s, PUBACK p50 ${fmtMs(r.p50)}, p99 ${fmtMs(r.p99)}, ${cpuText(extra)}` +
    (Number.isFinite(extra.fsyncsPerS) ? `, ${fmtInt(extra.fsyncsPerS!)} fsync/s` : '') +
    (extra.diskBytesPerS! > 0 ? `, ${extra.walBytesPerS === undefined ? 'disk' : 'WAL'} ${fmtInt(extra.diskBytesPerS! / 1024)} KiB/s = ${fmtInt(extra.diskBytesPerS! / r.msgsPerS)} B/reading` : '') +
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

async function mqttScenario(): Promise<void> {
  say(`\n[mqtt] MQTT QoS 1, ${MQTT_CLIENTS} devices (mqtt.js), ${MQTT_WINDOW} messages in flight each, DEVICE_RATE_LIMIT=0`);
  const srv = await startServer({ cpuProfDir: profDirFor('mqtt') });
  const bounds: Ceiling[] = [];
  try {
    const aedesFleet = await MqttFleet.connect(ceilingSrv!.mqttPort, fakeDevices('ceilmq', MQTT_CLIENTS), { authenticate: false });
    bounds.push(mqttCeiling('ceiling-mqtt', 'ceiling', ceilingSrv!.child, aedesFleet));
    const mosquitto = await mosquittoCeiling();
    if (mosquitto) bounds.push(mosquitto);
    const admin = await signIn(srv.httpUrl, ADMIN);
    const devices = await registerDevices(srv.httpUrl, admin, 'bench_mqtt', MQTT_CLIENTS);
    const fleet = await MqttFleet.connect(srv.mqttPort, devices, { authenticate: true });
    const subject = subjectOf(srv);
    openProbes.add(subject);
    let acknowledged = 0;
    for (const c of bounds) await c.warmUp();
    const warm = await fleet.run(WARMUP_S, MQTT_WINDOW);
    acknowledged += warm.acked + warm.drained;
    for (let i = 0; i < RUNS; i++) {
      const b = await measureCeilings(bounds, i);
      const { result: r, extra } = await measured(subject, 'mqtt', () => fleet.run(DURATION_S, MQTT_WINDOW));
      acknowledged += r.acked + r.drained;
      say(mqttLine('mqtt', i, r, extra));
      recordMqtt('mqtt', r, extra, versus(r.msgsPerS, r.p99, b));
    }
    if (fleet.outstanding() > 0) notes.push(`mqtt: ${fleet.outstanding()} publishes still without PUBACK after 30 s`);
    await fleet.close();
    await stopAndCheck(srv, 'mqtt', 'bench_mqtt', acknowledged, 0);
  } finally {
    for (const c of bounds) await c.close();
    await disposeServer(srv);
  }
}

/**
 * External broker mode (issue 15): devices publish QoS 1 to Mosquitto with its dynamic security
 * plugin; the server (MQTT_URL) takes the messages through its shared-subscription sessions and
 * stores them. Mosquitto acknowledges the devices at once, so the figure is readings *stored* per
 * second: from the start of a run until the last message published in it is in the database.
 * Beside it, run for run, the same load relayed by a plain Mosquitto to one plain subscriber.
 */
async function mqttExternal(): Promise<void> {
  say(`\n[mqtt-external] MQTT QoS 1 through Mosquitto (dynamic security) into storage: ${MQTT_CLIENTS} devices × ${MQTT_WINDOW} in flight, the server on MQTT_URL`);
  if (!dynsecAvailable()) {
    notes.push('mqtt-external: Mosquitto with its dynamic security plugin and mosquitto_ctrl are needed (Debian packages mosquitto, mosquitto-clients): no figure');
    return;
  }
  const broker = await startDynsecMosquitto();
  const bounds: Ceiling[] = [];
  let srv: RunningServer | null = null;
  try {
    srv = await startAguaServer({ cpuProfDir: profDirFor('mqtt-external'), env: { MQTT_URL: broker.adminUrl }, serverDir: SERVER_DIR });
    const running = srv;
    const mosquitto = await mosquittoCeiling();
    if (mosquitto) bounds.push(mosquitto);
    const admin = await signIn(running.httpUrl, ADMIN);
    // Created through the API: the server makes each device's account on the broker.
    const devices = await registerDevices(running.httpUrl, admin, 'bench_ext', MQTT_CLIENTS);
    const fleet = await MqttFleet.connect(broker.port, devices, { authenticate: true });
    let published = 0;
    const stored = () => storedReadings(running.dataDir!, 'bench_ext');
    const intoStorage = async (durationS: number) => {
      const before = stored();
      const startedAt = performance.now();
      const r = await fleet.run(durationS, MQTT_WINDOW);
      const sent = r.acked + r.drained;
      published += sent;
      const deadline = Date.now() + 60_000;
      while (stored() < before + sent && Date.now() < deadline) await sleep(10);
      const seconds = (performance.now() - startedAt) / 1000;
      const inRun = stored() - before;
      return { r, inRun, sent, seconds, rate: inRun / seconds };
    };
    for (const c of bounds) await c.warmUp();
    await intoStorage(WARMUP_S);
    for (let i = 0; i < RUNS; i++) {
      const b = await measureCeilings(bounds, i);
      const { result, extra } = await measured(running.child, 'mqtt-external', () => intoStorage(DURATION_S));
      say(
        `  mqtt-external run ${i + 1}: ${fmtInt(result.rate)} readings/s stored (${fmtInt(result.inRun)} of ${fmtInt(result.sent)} published in ${result.seconds.toFixed(1)} s; ` +
          `broker PUBACKs ${fmtInt(result.r.msgsPerS)}/s, p99 ${fmtMs(result.r.p99)}), ${cpuText(extra)}` +
          (result.inRun < result.sent ? ', NOT ALL STORED after 60 s' : '') +
          (result.r.refusals + result.r.publishErrors > 0 ? `, REFUSED ${result.r.refusals}, publish errors ${result.r.publishErrors}` : ''),
      );
      record('mqtt-external', {
        msgsPerS: result.rate,
        p50: NaN,
        p99: NaN,
        refused: result.r.refusals + result.r.publishErrors,
        cpuUs: (extra.serverCpu! / result.rate) * 1e6,
        ...extra,
        ...versus(result.rate, NaN, b),
      });
    }
    await fleet.close();
    await stopAndCheck(running, 'mqtt-external', 'bench_ext', published, 0);
  } finally {
    for (const c of bounds) await c.close();
    if (srv) await disposeServer(srv);
    await broker.stop();
  }
}

async function live(): Promise<void> {
  const hz = LIVE_RATE / LIVE_DEVICES;
  say(
    `\n[live] device → browser: ${fmtInt(LIVE_RATE)} readings/s over ${LIVE_TRANSPORT === 'mqtt' ? 'MQTT QoS 1' : 'HTTP'} (${LIVE_DEVICES} devices × ${fmtInt(hz)}/s) from ${LIVE_SENDERS} sender thread(s), ` +
      `${fmtInt(LIVE_SOCKETS)} live sockets (${fmtInt(LIVE_PROBES)} timing probes) in ${LIVE_RECEIVERS} receiver thread(s), DEVICE_RATE_LIMIT=0, MAX_CONNECTIONS_PER_ADDRESS=0`,
  );
  // The bench stands for many browsers and devices, but all connect from 127.0.0.1.
  const srv = await startServer({ cpuProfDir: profDirFor('live'), env: { MAX_CONNECTIONS_PER_ADDRESS: '0' } });
  try {
    const admin = await signIn(srv.httpUrl, ADMIN);
    const devices = await registerDevices(srv.httpUrl, admin, 'bench_live', LIVE_DEVICES);
    const bench = await LiveLatencyBench.open({
      baseUrl: srv.httpUrl,
      devices,
      newSession: () => signIn(srv.httpUrl, VIEWER),
      socketsPerSession: LIVE_SOCKETS_PER_SESSION,
      sockets: LIVE_SOCKETS,
      probes: LIVE_PROBES,
      receivers: LIVE_RECEIVERS,
      senders: LIVE_SENDERS,
      postConnections: LIVE_POST_CONNECTIONS,
      ...(LIVE_TRANSPORT === 'mqtt' ? { mqttUrl: `mqtt://127.0.0.1:${srv.mqttPort}` } : {}),
    });
    const subject = subjectOf(srv);
    openProbes.add(subject);
    let acknowledged = 0;
    const warm = await bench.run(WARMUP_S, LIVE_RATE);
    acknowledged += warm.ok;
    for (let i = 0; i < RUNS; i++) {
      const { result: r, extra } = await measured(subject, 'live', () => bench.run(LIVE_DURATION_S, LIVE_RATE));
      acknowledged += r.ok;
      const deliveredShare = r.delivered / r.expected;
      say(
        `  live run ${i + 1}: offered ${fmtInt(r.sendRate)} readings/s, answered ${fmtInt(r.answerRate)}/s (${r.failed} failed), ${fmtInt(r.sockets)} sockets (${fmtInt(r.probes)} probes)` +
          (r.socketsClosed > 0 ? ` (${fmtInt(r.socketsClosed)} CLOSED by the server as too slow)` : '') +
          `, frames delivered ${fmtPct(deliveredShare)} of reading×probe, latency p50 ${fmtMs(r.p50)}, p99 ${fmtMs(r.p99)}, max ${fmtMs(r.max)} (POST→202 p99 ${fmtMs(r.postP99)}), ${cpuText(extra)}`,
      );
      record('live', {
        sendRate: r.sendRate,
        answerRate: r.answerRate,
        sockets: r.sockets,
        socketsClosed: r.socketsClosed,
        p50: r.p50,
        p99: r.p99,
        max: r.max,
        postP99: r.postP99,
        delivered: deliveredShare,
        failed: r.failed,
        cpuUs: (extra.serverCpu! / r.answerRate) * 1e6,
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

/** On PostgreSQL: SCALE.md's two targets, and the CPU of the server child against PostgreSQL's. */
function pgReport(): void {
  const bk = `batch-${BATCH}`;
  if ([bk, 'http1', 'http1-limited'].some((k) => figures.has(k))) say(`\nSCALE.md on PostgreSQL (medians of ${RUNS} runs):`);
  if (figures.has(bk)) {
    const ratio = med(bk, `vs ${PG_COPY}`);
    say(
      `  batch of ${BATCH}: ${fmtInt(med(bk, 'readingsPerS'))} readings/s vs psql COPY of the same rows ${fmtInt(med(PG_COPY, 'readingsPerS'))} readings/s = ${fmtRatio(ratio)} ` +
        `(median of the run-by-run ratios; target ≥ ${TARGET.batchVsPgCopy}×): ${mark(Number.isFinite(ratio) ? ratio >= TARGET.batchVsPgCopy : null) || 'no verdict'}`,
    );
  }
  for (const key of ['http1', 'http1-limited']) {
    if (!figures.has(key)) continue;
    const rate = med(key, 'readingsPerS');
    say(`  ${key}: ${fmtInt(rate)} readings/s, p99 ${fmtMs(med(key, 'p99'))} (target ≥ ${fmtInt(TARGET.http1PgRate)}/s): ${mark(Number.isFinite(rate) ? rate >= TARGET.http1PgRate : null) || 'no verdict'}`);
  }
  const rows: string[][] = [];
  for (const key of ['http1', 'http1-limited', bk, 'mqtt', 'live', PG_COPY]) {
    const f = figures.get(key);
    if (!f) continue;
    const rate = med(key, key === 'mqtt' ? 'msgsPerS' : key === 'live' ? 'answerRate' : 'readingsPerS');
    const part = (name: string) => {
      const c = med(key, `cpu ${name}`);
      return Number.isFinite(c) ? `${fmtPct(c)} = ${((c / rate) * 1e6).toFixed(1)} µs` : '—';
    };
    rows.push([key, `${fmtInt(rate)}/s`, part('node'), part('postgres'), part('psql'), Number.isFinite(med(key, 'diskBytes')) ? `${fmtInt(med(key, 'diskBytes'))} B` : '—']);
  }
  if (rows.length > 0) {
    say(`\nWhere the CPU goes (medians; share of one core, and per reading):`);
    say(table(['Figure', 'Throughput', 'server (node)', 'PostgreSQL', 'psql', 'WAL/reading'], rows));
  }
}

function report(): void {
  const rows: string[][] = [];
  const n = (key: string) => {
    const runs = figures.get(key)?.runs ?? [];
    const contended = runs.filter((r) => (r.otherCores ?? 0) >= QUIET_CORES).length;
    return contended > 0 ? `${runs.length} (${contended} contended)` : `${runs.length}`;
  };
  // Ratio to a ceiling: the median of the run-by-run ratios (each figure run against the ceiling run just before it).
  const vs = (key: string, ceiling: string) => med(key, `vs ${ceiling}`);
  const atLeast = (ratio: number, min: number) => (Number.isFinite(ratio) ? ratio >= min : null);
  const cpu = (key: string) =>
    Number.isFinite(med(key, 'serverCpu')) ? `${fmtPct(med(key, 'serverCpu'))} / ${fmtPct(med(key, 'benchCpu'))} / ${med(key, 'otherCores').toFixed(2)}` : '—';
  const us = (key: string) => (Number.isFinite(med(key, 'cpuUs')) ? `${med(key, 'cpuUs').toFixed(1)} µs` : '—');
  const perFsync = (key: string) => (Number.isFinite(med(key, 'readingsPerFsync')) ? fmtInt(med(key, 'readingsPerFsync')) : '—');
  const disk = (key: string) => (Number.isFinite(med(key, 'diskBytes')) ? `${fmtInt(med(key, 'diskBytes'))} B` : '—');
  const row = (key: string, label: string, throughput: string, vs: string, target: string, ok: boolean | null) =>
    rows.push([label, throughput, fmtMs(med(key, 'p50')), fmtMs(med(key, 'p99')), vs, target, mark(ok), us(key), cpu(key), perFsync(key), disk(key), n(key)]);
  const ceilingRow = (key: string, label: string, unit: string, metric: string) => {
    if (figures.has(key)) row(key, `Ceiling: ${label}`, `${fmtInt(med(key, metric))} ${unit}`, '1.00×', '', null);
  };

  for (const g of STORAGE_GROUPS) {
    const key = `storage-${g}`;
    if (figures.has(key)) row(key, `Storage alone: ${g} readings/commit (latency = commit)`, `${fmtInt(med(key, 'readingsPerS'))} readings/s`, '', '', null);
  }
  ceilingRow('ceiling-1', 'bare Fastify, 1-reading body', 'req/s', 'reqPerS');
  ceilingRow(`ceiling-${BATCH}`, `bare Fastify, ${BATCH}-reading body`, 'req/s', 'reqPerS');
  ceilingRow(RAW_SQLITE, `raw better-sqlite3, ${BATCH}-row WAL transactions (latency = transaction)`, 'readings/s', 'readingsPerS');
  ceilingRow(PG_COPY, `psql \\copy of the same rows into the same readings table (PostgreSQL)`, 'readings/s', 'readingsPerS');
  ceilingRow('ceiling-mqtt', 'bare Aedes, QoS 1', 'msg/s', 'msgsPerS');
  ceilingRow('mosquitto', 'Mosquitto relaying QoS 1 to 1 subscriber', 'msg/s', 'msgsPerS');
  for (const key of ['http1', 'http1-limited']) {
    if (!figures.has(key)) continue;
    const ratio = vs(key, 'ceiling-1');
    const p99 = med(key, 'p99');
    const label =
      key === 'http1'
        ? `HTTP 1 reading/req, ${CONNECTIONS} conn, ${CONNECTIONS} devices, limit 0`
        : `HTTP 1 reading/req, ${CONNECTIONS} conn, ${LIMITED_DEVICES} devices, limit 50/s`;
    const rate = med(key, 'readingsPerS');
    const ok = atLeast(ratio, TARGET.http1VsFastify);
    row(
      key,
      label + (PG ? ', PostgreSQL' : ''),
      `${fmtInt(rate)} readings/s`,
      `${fmtRatio(ratio)} Fastify (p99 ${fmtRatio(med(key, 'p99 vs ceiling-1'))})`,
      // On PostgreSQL the target is SCALE.md's: a rate, whatever the bare route does.
      PG ? `≥ ${fmtInt(TARGET.http1PgRate)} readings/s` : `≥ ${TARGET.http1VsFastify}× Fastify, p99 < ${TARGET.http1P99Ms} ms`,
      PG ? (Number.isFinite(rate) ? rate >= TARGET.http1PgRate : null) : ok === null ? null : ok && p99 < TARGET.http1P99Ms,
    );
  }
  const bk = `batch-${BATCH}`;
  if (figures.has(bk) && PG) {
    const ratio = vs(bk, PG_COPY);
    row(
      bk,
      `HTTP batch of ${BATCH}, ${CONNECTIONS} conn, limit 0, PostgreSQL`,
      `${fmtInt(med(bk, 'readingsPerS'))} readings/s`,
      `${fmtRatio(ratio)} psql COPY (${fmtRatio(vs(bk, `ceiling-${BATCH}`))} Fastify)`,
      `≥ ${TARGET.batchVsPgCopy}× COPY`,
      atLeast(ratio, TARGET.batchVsPgCopy),
    );
  } else if (figures.has(bk)) {
    const ratio = vs(bk, RAW_SQLITE);
    row(
      bk,
      `HTTP batch of ${BATCH}, ${CONNECTIONS} conn, limit 0`,
      `${fmtInt(med(bk, 'readingsPerS'))} readings/s`,
      `${fmtRatio(ratio)} raw SQLite (${fmtRatio(vs(bk, `ceiling-${BATCH}`))} Fastify)`,
      `≥ ${TARGET.batchVsRawSqlite.toFixed(1)}× raw SQLite`,
      atLeast(ratio, TARGET.batchVsRawSqlite),
    );
  }
  if (figures.has('mqtt')) {
    const ratio = vs('mqtt', 'mosquitto');
    row(
      'mqtt',
      `MQTT QoS 1, ${MQTT_CLIENTS} clients × ${MQTT_WINDOW} in flight`,
      `${fmtInt(med('mqtt', 'msgsPerS'))} msg/s`,
      `${fmtRatio(ratio)} Mosquitto (${fmtRatio(vs('mqtt', 'ceiling-mqtt'))} Aedes)`,
      `≥ ${TARGET.mqttVsMosquitto}× Mosquitto`,
      atLeast(ratio, TARGET.mqttVsMosquitto),
    );
  }
  if (figures.has('mqtt-external')) {
    const ratio = vs('mqtt-external', 'mosquitto');
    row(
      'mqtt-external',
      `MQTT QoS 1 via Mosquitto (MQTT_URL) into storage, ${MQTT_CLIENTS} clients × ${MQTT_WINDOW} in flight`,
      `${fmtInt(med('mqtt-external', 'msgsPerS'))} readings/s`,
      `${fmtRatio(ratio)} Mosquitto relaying`,
      `≥ ${TARGET.externalVsMosquitto}× Mosquitto relaying`,
      atLeast(ratio, TARGET.externalVsMosquitto),
    );
  }
  if (figures.has('live')) {
    const answered = med('live', 'answerRate');
    const sockets = med('live', 'sockets');
    const closed = med('live', 'socketsClosed');
    // Only a run at the target's load can meet it; a lighter run (options) gets no verdict.
    const atTargetLoad = LIVE_RATE >= TARGET.liveRate && LIVE_SOCKETS >= TARGET.liveSockets;
    row(
      'live',
      `Live: POST → WS frame, ${fmtInt(med('live', 'sendRate'))}/s offered, ${fmtInt(sockets)} sockets` +
        (closed > 0 ? ` (${fmtInt(closed)} closed as too slow)` : '') +
        `, ${fmtPct(med('live', 'delivered'))} of frames delivered`,
      `${fmtInt(answered)} readings/s`,
      '',
      `p99 < ${TARGET.liveP99Ms} ms at ${fmtInt(TARGET.liveRate)}/s, ${fmtInt(TARGET.liveSockets)} sockets` + (atTargetLoad ? '' : ' (lighter load: no verdict)'),
      atTargetLoad
        ? med('live', 'p99') < TARGET.liveP99Ms && answered >= 0.99 * TARGET.liveRate && sockets >= TARGET.liveSockets && closed === 0
        : null,
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
  if (PG) {
    say(
      `On PostgreSQL: "srv" is the server child plus the whole PostgreSQL cluster (postmaster, backends, WAL writer, checkpointer, and the backends that ended within the run); ` +
        `for ${PG_COPY} it is the cluster plus psql. items/fsync counts the fsyncs of the server child and of the PostgreSQL processes that existed when the run started. ` +
        `disk/item is the WAL PostgreSQL generated per reading (pg_current_wal_insert_lsn, whole cluster).`,
    );
    pgReport();
  }
  const loads = [...figures.values()].flatMap((f) => f.runs.map((r) => r.load1!)).filter(Number.isFinite);
  if (loads.length > 0) say(`Load average (1 min) at the start of the measured runs: median ${median(loads).toFixed(2)}, ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}; now ${loadText()}.`);
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
  say(loadText());
  say(await diskProbe('before'));
  if (PG) {
    const server = await describeServer(PG_ADMIN_URL);
    pgCluster = await PgCluster.locate(PG_ADMIN_URL);
    const commits = await pgCommitProbe(PG_ADMIN_URL);
    say(`database: PostgreSQL (--database postgres): ${server.text}`);
    say(`  data directory ${server.dataDirectory} on ${filesystemOf(server.dataDirectory)}; postmaster pid ${pgCluster?.pid ?? '? (its CPU is not counted)'}`);
    say(`  one-row INSERT commits back to back: ${fmtInt(commits.commitsPerS)}/s, p50 ${fmtMs(commits.p50)}, p99 ${fmtMs(commits.p99)}`);
    say(`  each server on a fresh database agua_bench_<random> (DATABASE_URL, DEMO=true), dropped with it`);
    for (const s of skippedOnPg) say(`  skipped on PostgreSQL: ${s}`);
  }
  say(
    `load: autocannon ${CONNECTIONS} connections, pipelining 1; body ${Buffer.byteLength(sample)} B (1 reading), ` +
      `${Buffer.byteLength(batchJson({ id: 'bench_batch_000', key: '', boot: 'c0ffee00', seq: 1234 }, BATCH, Date.now()))} B (batch of ${BATCH}); ` +
      `fsync counting ${USE_PERF ? 'on (perf stat)' : 'off'}${PROFILE_DIR ? `; CPU profiles in ${PROFILE_DIR}` : ''}`,
  );
  say(`sample reading: ${sample}`);

  if (want('storage')) await storage();
  const paired = (['http1', 'http1-limited', 'batch', 'mqtt'] as const).some(want);
  if (want('ceiling') && !paired) await ceilings();
  if (paired) {
    ceilingSrv = await startCeilingServer({ cpuProfDir: profDirFor('ceiling') });
    say(
      `\n[ceiling] bare Fastify 5 route (202 {}) and bare Aedes broker (child process), ${PG ? 'psql \\copy (after each batch run)' : 'raw better-sqlite3 (this process)'} and Mosquitto: ` +
        `measured run for run alongside each figure below`,
    );
  }
  if (want('http1')) await http1(false);
  if (want('http1-limited')) await http1(true);
  if (want('batch')) await batch();
  if (want('mqtt')) await mqttScenario();
  if (want('mqtt-external')) await mqttExternal();
  if (ceilingSrv) {
    await ceilingSrv.child.stop();
    collectProfile(ceilingSrv, 'ceiling');
  }
  if (want('live')) await live();
  for (const s of openProbes) await s.probe?.close();

  report();
  say(await diskProbe('after'));
  say(`\nbench took ${Math.round((Date.now() - started) / 1000)} s`);
  if (argv.json) {
    fs.writeFileSync(argv.json, JSON.stringify({ at: new Date().toISOString(), database: argv.database, figures: Object.fromEntries(figures), checks, notes }, null, 2));
    say(`runs written to ${argv.json}`);
  }
  if (checks.some((c) => !c.ok)) process.exitCode = 1;
}

/** Drops the databases still there (a failed or interrupted run); their servers are stopped first. */
async function cleanUpPostgres(): Promise<void> {
  if (!PG) return;
  await stopAllChildren();
  const failed = await dropAllBenchDatabases();
  if (failed.length > 0) console.error(`could not drop: ${failed.join(', ')}`);
}

if (PG) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping the servers and dropping the bench databases…`);
      void cleanUpPostgres().finally(() => process.exit(130));
    });
  }
}

main().catch(async (err: unknown) => {
  console.error(err);
  await cleanUpPostgres().catch((e: unknown) => console.error(e));
  process.exit(1);
});
