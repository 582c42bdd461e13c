/**
 * The ingest bench's options (npm run bench:ingest -- --help) and what follows from them: which
 * scenarios run, their loads, and the targets each figure is judged against (issue 27).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_PG_ADMIN_URL } from './postgres';
import { perfAvailable } from './syscall-counter';

/** Every scenario, in the order they run. */
export const ALL = ['storage', 'ceiling', 'http1', 'http1-limited', 'batch', 'batch-one-device', 'batch-storm', 'batch-one-device-storm', 'mqtt', 'mqtt-external', 'live'] as const;
export type Scenario = (typeof ALL)[number];
/** Shorter names for a group of scenarios on the command line. */
const ALIASES: Record<string, Scenario[]> = {
  single: ['http1'],
  batches: ['batch', 'batch-one-device', 'batch-storm', 'batch-one-device-storm'],
  storm: ['batch-storm', 'batch-one-device-storm'],
  fanout: ['live'],
};

export const { values: argv, positionals } = parseArgs({
  allowPositionals: true,
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
    bundle: { type: 'boolean', default: false },
    geometry: { type: 'boolean', default: false },
    database: { type: 'string', default: 'sqlite' },
    'pg-admin-url': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

if (argv.help) {
  console.log(`npm run bench:ingest -- [scenario…] [options]
  scenario…           run only these (same names as --only; also: single = http1, batches = the
                      four batch figures, fanout = live); none = every scenario
  --runs N            measured runs per figure (default 3; the figure is their median)
  --duration S        seconds per HTTP/MQTT run (default 5)
  --warmup S          seconds of the unmeasured warm-up run before each figure (default 2)
  --only LIST         comma-separated subset of: ${ALL.join(',')}
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
  --bundle            run the server from the bundle npm start runs (apps/server/dist, esbuild, built
                      first when stale) instead of its TypeScript sources through tsx
  --geometry          give every bench level sensor a geometry (a 20 m² tank with a crest and a
                      weir), so that each reading's water figures are computed (issue 28: within
                      10 % of the same run without)
  --database ENGINE   sqlite (default: a fresh SQLite file per server) or postgres: each server on a
                      fresh database of its own (CREATE DATABASE agua_bench_<random>, DATABASE_URL,
                      dropped when that server is done); scenarios http1, http1-limited, batch, mqtt,
                      live, ceiling; the batch figure's ceiling is then psql \\copy of the same rows
                      into the same readings table (pg-copy), run after each batch run
  --pg-admin-url URL  superuser connection that creates and drops the databases
                      (default ${DEFAULT_PG_ADMIN_URL})`);
  process.exit(0);
}

export const RUNS = Number(argv.runs);
/** Every bench level sensor gets a geometry (--geometry). */
export const GEOMETRY = argv.geometry;
export const DURATION_S = Number(argv.duration);
export const WARMUP_S = Number(argv.warmup);
export const CONNECTIONS = Number(argv.connections);
export const BATCH = Number(argv.batch);
export const MQTT_CLIENTS = Number(argv['mqtt-clients']);
export const MQTT_WINDOW = Number(argv['mqtt-window']);
export const LIVE_SOCKETS = Number(argv['live-sockets']);
export const LIVE_DEVICES = Number(argv['live-devices']);
export const LIVE_RATE = Number(argv['live-rate']);
export const LIVE_DURATION_S = Number(argv['live-duration']);
export const LIVE_SENDERS = Number(argv['live-senders']);
export const LIVE_RECEIVERS = Number(argv['live-receivers']);
export const LIVE_PROBES = Math.min(Number(argv['live-probes']), LIVE_SOCKETS);
export const LIVE_TRANSPORT = argv['live-transport'];
if (LIVE_TRANSPORT !== 'http' && LIVE_TRANSPORT !== 'mqtt') throw new Error(`--live-transport: http or mqtt, not "${LIVE_TRANSPORT}"`);
/**
 * Live sockets per signed-in session: at most 15, as a browser holds them (issue 27); the server
 * allows 16 (MAX_LIVE_SOCKETS_PER_SESSION, features/live/live.routes.ts).
 */
export const LIVE_SOCKETS_PER_SESSION = 15;
/** Keep-alive POST connections of the live devices, all sender threads together. */
export const LIVE_POST_CONNECTIONS = 256;
export const LIMITED_DEVICES = Number(argv['limited-devices']);
if (argv.database !== 'sqlite' && argv.database !== 'postgres') {
  console.error(`--database: "${argv.database}" is neither sqlite nor postgres`);
  process.exit(2);
}
/** The server runs on PostgreSQL (DATABASE_URL), one fresh database per server. */
export const PG = argv.database === 'postgres';
export const PG_ADMIN_URL = argv['pg-admin-url'] ?? DEFAULT_PG_ADMIN_URL;
/** Scenarios that have no meaning on PostgreSQL, and why. */
export const NOT_ON_PG: Partial<Record<Scenario, string>> = {
  storage: 'it drives the server\'s SQLite writer on a SQLite file in this process; on PostgreSQL the batch figure\'s pg-copy ceiling is the storage-alone figure',
  'mqtt-external': 'not ported: it polls the SQLite file for the stored count while the broker holds the messages',
};
const named = [...(argv.only?.split(',') ?? []), ...positionals].map((s) => s.trim()).filter(Boolean);
export const only = new Set(named.length > 0 ? named.flatMap((s) => ALIASES[s] ?? [s]) : ALL);
for (const s of only) if (!(ALL as readonly string[]).includes(s)) throw new Error(`--only: unknown scenario "${s}" (${ALL.join(', ')})`);
/** Scenarios left out on PostgreSQL (printed in the header); named in --only, they are refused. */
export const skippedOnPg: string[] = [];
if (PG) {
  for (const [s, why] of Object.entries(NOT_ON_PG)) {
    if (!only.has(s)) continue;
    if (named.length > 0) {
      console.error(`--database postgres: scenario "${s}" is not available on PostgreSQL: ${why}`);
      process.exit(2);
    }
    only.delete(s);
    skippedOnPg.push(`${s} (${why})`);
  }
}
export const want = (s: Scenario) => only.has(s);
export const QUIET_WAIT_S = Number(argv['quiet-wait']);
/** The targets (issue text): throughput as a share of a ceiling measured alongside, and latencies. */
export const TARGET = {
  http1VsFastify: 0.6,
  http1P99Ms: 10,
  batchVsRawSqlite: 1.0,
  /** Under an alarm storm, batches within 10 % of the same scenario without one. */
  stormVsCalm: 0.9,
  mqttVsMosquitto: 0.7,
  externalVsMosquitto: 0.5,
  liveP99Ms: 50,
  liveRate: 10_000,
  liveSockets: 1_000,
  /** docs/operations.md, on PostgreSQL: batches ≥ 0.5× COPY of the same rows, single readings ≥ 10,000/s. */
  batchVsPgCopy: 0.5,
  http1PgRate: 10_000,
} as const;
export const NCPU = os.cpus().length;
export const USE_PERF = !argv['no-perf'] && perfAvailable();
export const SERVER_DIR = argv['server-dir'] ? path.resolve(argv['server-dir']) : undefined;
/** The server under test runs from the production bundle (npm start's), not through tsx. */
export const BUNDLE = argv.bundle;
if (BUNDLE && SERVER_DIR) throw new Error('--bundle and --server-dir: the bundle is built from this checkout only');
export const PROFILE_DIR = argv.profile ? fs.mkdtempSync(path.join(os.tmpdir(), 'agua-bench-prof-')) : undefined;
