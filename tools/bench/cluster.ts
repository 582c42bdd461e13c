/**
 * Several instances (npm run bench:cluster; docs/operations.md "Speed"): "Three instances: a reading's way
 * from a device on A to a browser on C, p99 < 100 ms at 1,000 readings/s."
 *
 * Three server instances (A, B, C) on one fresh PostgreSQL database and a Redis of the bench's
 * own, started one after another. The devices (level sensors registered on A) POST single
 * readings to A from a sender process of their own, open loop at --rate readings/s; live sockets
 * in this process, on C and on A, time every reading.created frame against the POST's send time.
 * So one run measures the path across instances (A→C: A stores, publishes on Redis, C pushes) and,
 * under the same load, the same path within one instance (A→A) as the comparison.
 * Medians of --runs runs, each --warmup s unmeasured then --duration s measured.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { type BenchDevice } from './ingest/devices';
import { PgCluster } from './ingest/postgres';
import { machineCpuTicks, processCpuTimes, selfCpuSeconds } from './ingest/server-process';
import { fmtInt, fmtMs, median, sleep, table } from './ingest/stats';
import { Sender, createDatabase, startInstance, startRedis, teardown, teardownSync, type Instance } from './cluster/infra';
import { LiveProbes, type PathResult } from './cluster/probes';
import type { FromSender, SenderDone, SentNote } from './cluster/sender';

const { values: argv } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    duration: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '5' },
    rate: { type: 'string', default: '1000' },
    devices: { type: 'string', default: '100' },
    sockets: { type: 'string', default: '1' },
    connections: { type: 'string', default: '16' },
    'quiet-wait': { type: 'string', default: '30' },
    'pg-admin-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    help: { type: 'boolean', default: false },
  },
});
if (argv.help) {
  console.log(`npm run bench:cluster -- [options]
  --runs N            measured runs, medians printed (3)
  --duration S        measured seconds per run (20)
  --warmup S          unmeasured seconds before each run, same load (5)
  --rate N            readings/s POSTed to A (1000)
  --devices N         level sensors registered on A, sending in turn (100: 10 readings/s each at 1000/s)
  --sockets N         live sockets on C and on A each (1)
  --connections N     keep-alive HTTP connections of the sender (16)
  --quiet-wait S      before each run, wait up to S s for other processes to use < 0.25 core (30);
                      a run started without that is flagged [CONTENDED]
  --pg-admin-url URL  PostgreSQL superuser URL; the bench creates and drops agua_bench_cluster_<random>
                      (postgres://postgres@127.0.0.1:5432/postgres)`);
  process.exit(0);
}
const RUNS = Number(argv.runs);
const DURATION_S = Number(argv.duration);
const WARMUP_S = Number(argv.warmup);
const RATE = Number(argv.rate);
const DEVICES = Number(argv.devices);
const SOCKETS = Number(argv.sockets);
const CONNECTIONS = Number(argv.connections);
const PG_ADMIN_URL = argv['pg-admin-url'];
const QUIET_WAIT_S = Number(argv['quiet-wait']);
const QUIET_CORES = 0.25;
const TARGET_P99_MS = 100;
const TARGET_RATE = 1000;
const GRACE_MS = 1000;
const ADMIN = { username: 'admin', password: 'admin123', masterPassword: 'maestra2024' };
const OPERATOR = { username: 'operator', password: 'operator123' };
const say = (s: string) => console.log(s);
const load = () => os.loadavg().map((l) => l.toFixed(2));

// ------------------------------------------------------------------------------ clean-up always

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    say(`\n${signal}: stopping the instances, Redis, the sender; dropping the database…`);
    void teardown().then((failed) => {
      for (const f of failed) console.error(`clean-up: ${f}`);
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  });
}
process.on('exit', teardownSync);

// -------------------------------------------------------------------------------------- helpers

async function signIn(url: string, credentials: Record<string, string>): Promise<string> {
  const res = await fetch(`${url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify(credentials),
  });
  if (res.status !== 200) throw new Error(`sign-in as ${credentials.username} on ${url}: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('agua_session='));
  if (!cookie) throw new Error('sign-in answered without a session cookie');
  return cookie.split(';')[0]!;
}

async function registerDevices(url: string, adminCookie: string, count: number): Promise<BenchDevice[]> {
  const out: BenchDevice[] = [];
  for (let i = 0; i < count; i++) {
    const id = `bench_cluster_${String(i).padStart(3, '0')}`;
    const res = await fetch(`${url}/api/v1/devices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: adminCookie, origin: url },
      body: JSON.stringify({ id, name: `Bench ${id}`, location: 'bench', type: 'level_sensor', waterType: 'clean', config: { maxLevel: 10 } }),
    });
    if (res.status !== 201) throw new Error(`creating device ${id}: ${res.status} ${await res.text()}`);
    const { apiKey } = (await res.json()) as { apiKey: string };
    out.push({ id, key: apiKey, boot: Math.floor(Math.random() * 0xffffffff).toString(16).padStart(8, '0'), seq: 0 });
  }
  return out;
}

function gitDescribe(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'apps/server', 'packages/shared'], { encoding: 'utf8' }).split('\n').filter(Boolean).length;
    return dirty ? `${head} + ${dirty} uncommitted file(s) in apps/server, packages/shared` : head;
  } catch {
    return 'unknown';
  }
}

/** Cores used over `ms` by each of `cpuOf` and by the rest of the machine (`others`). */
async function sampleCpu(cpuOf: Record<string, () => number>, run: () => Promise<void>): Promise<Record<string, number>> {
  const cpu0 = Object.fromEntries(Object.entries(cpuOf).map(([k, f]) => [k, f()]));
  const m0 = machineCpuTicks();
  const t0 = performance.now();
  await run();
  const seconds = (performance.now() - t0) / 1000;
  const m1 = machineCpuTicks();
  const cpu: Record<string, number> = {};
  let ours = 0;
  for (const [k, f] of Object.entries(cpuOf)) {
    cpu[k] = (f() - cpu0[k]!) / seconds;
    ours += cpu[k]!;
  }
  const machineCores = ((m1.busy - m0.busy) / (m1.total - m0.total)) * os.cpus().length;
  cpu['others'] = Math.max(0, machineCores - ours);
  return cpu;
}

/** Waits (up to QUIET_WAIT_S) for a second in which other processes use < QUIET_CORES; returns whether one came, and their cores then. */
async function waitQuiet(cpuOf: Record<string, () => number>): Promise<{ quiet: boolean; others: number }> {
  const deadline = performance.now() + QUIET_WAIT_S * 1000;
  let others = NaN;
  do {
    others = (await sampleCpu(cpuOf, () => sleep(1000)))['others']!;
    if (others < QUIET_CORES) return { quiet: true, others };
  } while (performance.now() < deadline);
  return { quiet: false, others };
}

interface RunResult {
  /** Other processes' cores just before the run, and whether that was under QUIET_CORES. */
  before: { quiet: boolean; others: number };
  done: SenderDone;
  paths: PathResult[];
  /** Cores used during the measured window, by process, and by the rest of the machine. */
  cpu: Record<string, number>;
  loadStart: string[];
  loadEnd: string[];
}

async function measure(sender: Sender, probes: LiveProbes, cpuOf: Record<string, () => number>): Promise<RunResult> {
  const before = await waitQuiet(cpuOf);
  const measuring = sender.next((m) => m.type === 'measuring');
  const done = sender.next((m): m is SenderDone => m.type === 'done');
  sender.send({ type: 'run', warmupS: WARMUP_S, durationS: DURATION_S, rate: RATE });
  await measuring;
  probes.begin();
  const loadStart = load();
  let result: SenderDone | undefined;
  const cpu = await sampleCpu(cpuOf, async () => {
    result = await done;
  });
  const loadEnd = load();
  await sleep(GRACE_MS);
  return { before, done: result!, paths: probes.end(), cpu, loadStart, loadEnd };
}

const pct = (n: number) => `${(n * 100).toFixed(1)}%`;

// ----------------------------------------------------------------------------------------- main

async function main(): Promise<void> {
  say(`bench:cluster — ${new Date().toISOString()}, commit ${gitDescribe()}`);
  say(`machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}; load ${load().join(' ')}`);
  say(`load: ${fmtInt(RATE)} readings/s to A from ${DEVICES} devices (${(RATE / DEVICES).toFixed(1)}/s each), ${CONNECTIONS} keep-alive connections; ${SOCKETS} live socket(s) on C and on A; ${RUNS} runs of ${WARMUP_S} s warm-up + ${DURATION_S} s measured`);

  const redis = await startRedis();
  const db = await createDatabase(PG_ADMIN_URL);
  say(`redis-server ${redis.url} (pid ${redis.child.pid}); database ${db.name}`);
  const instances: Instance[] = [];
  for (const name of ['a', 'b', 'c']) {
    const t = performance.now();
    instances.push(await startInstance(name, { DATABASE_URL: db.url, REDIS_URL: redis.url }));
    say(`instance ${name}: ${instances.at(-1)!.url} (pid ${instances.at(-1)!.child.pid}), healthy after ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  const [A, B, C] = instances as [Instance, Instance, Instance];

  const devices = await registerDevices(A.url, await signIn(A.url, ADMIN), DEVICES);
  say(`${devices.length} level sensors registered on A`);

  const probes = new LiveProbes();
  const onC = await signIn(C.url, OPERATOR);
  const onA = await signIn(A.url, OPERATOR);
  for (let i = 0; i < SOCKETS; i++) await probes.open(C.url, onC, 'A→C');
  for (let i = 0; i < SOCKETS; i++) await probes.open(A.url, onA, 'A→A');

  const sender = await Sender.start({ type: 'init', baseUrl: A.url, devices, connections: CONNECTIONS });
  sender.proc.on('message', (m: FromSender) => {
    if (m.type === 'sent') probes.noteSent(m as SentNote);
  });

  const pgCluster = await PgCluster.locate(PG_ADMIN_URL);
  const cpuOf: Record<string, () => number> = {
    A: () => cpuSeconds(A.child.pid),
    B: () => cpuSeconds(B.child.pid),
    C: () => cpuSeconds(C.child.pid),
    redis: () => cpuSeconds(redis.child.pid),
    sender: () => cpuSeconds(sender.pid),
    bench: selfCpuSeconds,
    ...(pgCluster ? { postgres: () => cpuSeconds(pgCluster) } : {}),
  };

  const runs: RunResult[] = [];
  for (let r = 0; r < RUNS && !interrupted; r++) {
    const res = await measure(sender, probes, cpuOf);
    runs.push(res);
    const d = res.done;
    const rates = `sent ${fmtInt(d.sent / d.sendSeconds)}/s, 202 ${fmtInt(d.ok / d.answerSeconds)}/s (${fmtInt(d.ok)} of ${fmtInt(d.sent)}${d.failed ? `, ${d.failed} failed ${JSON.stringify(d.statuses)}` : ''}), POST p99 ${fmtMs(d.postP99)}, schedule lag max ${fmtMs(d.maxLagMs)}`;
    say(`\nrun ${r + 1}${res.before.quiet ? '' : ' [CONTENDED]'}: ${rates}`);
    for (const p of res.paths) {
      say(`  ${p.path}: p50 ${fmtMs(p.p50)}  p95 ${fmtMs(p.p95)}  p99 ${fmtMs(p.p99)}  max ${fmtMs(p.max)}; frames ${fmtInt(p.frames)}, own frame for ${pct(p.delivered / (d.ok * p.sockets))} of readings${p.unmatched ? `, ${p.unmatched} unmatched` : ''}${p.closedByServer ? `, ${p.closedByServer} socket(s) closed by the server` : ''}`);
    }
    say(`  CPU (cores): ${Object.entries(res.cpu).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}; others before the run ${res.before.others.toFixed(2)}; load ${res.loadStart.join(' ')} → ${res.loadEnd.join(' ')}`);
  }
  sender.send({ type: 'close' });
  probes.close();
  if (runs.length === 0) return;

  const med = (f: (r: RunResult) => number) => median(runs.map(f));
  const pathOf = (r: RunResult, path: string) => r.paths.find((p) => p.path === path)!;
  const rows = ['A→C', 'A→A'].map((path) => [
    path === 'A→C' ? 'device on A → browser on C' : 'device on A → browser on A',
    fmtMs(med((r) => pathOf(r, path).p50)),
    fmtMs(med((r) => pathOf(r, path).p95)),
    fmtMs(med((r) => pathOf(r, path).p99)),
    fmtMs(med((r) => pathOf(r, path).max)),
    fmtInt(med((r) => pathOf(r, path).frames)),
    pct(med((r) => pathOf(r, path).delivered / (r.done.ok * pathOf(r, path).sockets))),
    runs.map((r) => fmtMs(pathOf(r, path).p99)).join(' / '),
  ]);
  say(`\nMedians of ${runs.length} run(s), ${DURATION_S} s each:`);
  say(table(['path', 'p50', 'p95', 'p99', 'max', 'frames', 'own frame', 'p99 by run'], rows));
  const sent = med((r) => r.done.sent / r.done.sendSeconds);
  const answered = med((r) => r.done.ok / r.done.answerSeconds);
  const failed = runs.reduce((a, r) => a + r.done.failed, 0);
  say(`readings/s sent ${fmtInt(sent)}, answered 202 ${fmtInt(answered)} (${failed} not 202 in all runs); POST→202 p50 ${fmtMs(med((r) => r.done.postP50))}, p99 ${fmtMs(med((r) => r.done.postP99))}`);
  const cpuKeys = Object.keys(runs[0]!.cpu);
  say(`CPU (cores, medians): ${cpuKeys.map((k) => `${k} ${med((r) => r.cpu[k]!).toFixed(2)}`).join(', ')} (postgres = the whole cluster, other databases included; others = every other process)`);
  const contended = runs.filter((r) => !r.before.quiet).length;
  if (contended) say(`${contended} of ${runs.length} run(s) started while other processes used ≥ ${QUIET_CORES} core after waiting ${QUIET_WAIT_S} s [CONTENDED]`);
  say(`load average (1/5/15 min) at the start of the runs: ${runs.map((r) => r.loadStart.join(' ')).join(' | ')}; at the end: ${load().join(' ')}`);

  const p99 = med((r) => pathOf(r, 'A→C').p99);
  const rateMet = RATE >= TARGET_RATE && answered >= 0.98 * TARGET_RATE && failed === 0;
  if (RATE < TARGET_RATE) say(`\nScale target (docs/operations.md; p99 < ${TARGET_P99_MS} ms at ${fmtInt(TARGET_RATE)} readings/s): no verdict, this run offered ${fmtInt(RATE)}/s`);
  else say(`\nScale target "Three instances: A→C p99 < ${TARGET_P99_MS} ms at ${fmtInt(TARGET_RATE)} readings/s": p99 ${fmtMs(p99)} at ${fmtInt(answered)} answered/s — ${p99 < TARGET_P99_MS && rateMet ? 'MET' : 'MISSED'}`);
}

function cpuSeconds(of: number | PgCluster): number {
  const t = typeof of === 'number' ? processCpuTimes(of) : of.cpuTimes();
  return t.user + t.system;
}

let code = 0;
try {
  await main();
} catch (err) {
  // After ctrl-C the children stop under the runs' feet: that is no failure to report.
  if (!interrupted) console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  code = 1;
}
if (!interrupted) {
  const failed = await teardown();
  for (const f of failed) console.error(`clean-up: ${f}`);
  if (failed.length) code = 1;
  process.exit(code);
}
