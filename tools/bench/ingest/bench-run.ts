/**
 * What every scenario of the ingest bench shares: measuring one run (server CPU, load generator
 * CPU, fsyncs, the window for the profile), the figures recorded, the servers under test, and
 * the check after each server stops that the readings table holds what was acknowledged.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describeDatabase } from '../../../apps/server/src/storage/postgres/postgres-storage';
import { BUNDLE, NCPU, PG, PG_ADMIN_URL, PROFILE_DIR, QUIET_WAIT_S, SERVER_DIR, USE_PERF } from './options';
import { type PgCluster, Composite, countReadings, createBenchDatabase, walProbe } from './postgres';
import { formatSummary, summarizeProfile } from './profile-summary';
import {
  type BenchDatabase,
  type Measurable,
  type RunningServer,
  cpuSecondsOf,
  machineCpuTicks,
  REPO_ROOT,
  SELF,
  selfCpuSeconds,
  startAguaServer,
} from './server-process';
import { fmtInt, fmtMs, fmtPct } from './stats';
import { FsyncCounter, diskSyncLatencyMs, sqliteCommitProbe } from './syscall-counter';

export type Metrics = Record<string, number>;
export interface Figure {
  key: string;
  runs: Metrics[];
}
export const figures = new Map<string, Figure>();
export const notes: string[] = [];
export const checks: Array<{ name: string; ok: boolean; detail: string }> = [];
export const profileWindows = new Map<string, Array<[number, number]>>();
export const nowUs = () => Number(process.hrtime.bigint() / 1000n);

export function record(key: string, m: Metrics): void {
  const f = figures.get(key) ?? { key, runs: [] };
  f.runs.push(m);
  figures.set(key, f);
}

/** CPU (in cores) that processes other than `subject` and this bench use, over `ms`. */
export async function othersCores(subject: Measurable, ms: number): Promise<number> {
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

export const QUIET_CORES = 0.25;
/** The machine is shared: waits (up to --quiet-wait) until other processes leave it nearly idle. */
export async function waitForQuiet(subject: Measurable): Promise<void> {
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
export async function measured<T>(subject: Measurable, profileKey: string, fn: () => Promise<T>): Promise<{ result: T; extra: Metrics }> {
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
export function loadAverage(): number[] {
  try {
    return fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);
  } catch {
    return [NaN, NaN, NaN];
  }
}

export function loadText(): string {
  return `load average ${loadAverage().map((l) => l.toFixed(2)).join(' ')} (1/5/15 min, ${NCPU} cores)`;
}

/** " (node 80%, postgres 60%)": each part of a composite subject. */
export function partsText(extra: Metrics): string {
  const parts = Object.keys(extra).filter((k) => k.startsWith('cpu '));
  return parts.length > 0 ? ` (${parts.map((k) => `${k.slice(4)} ${fmtPct(extra[k]!)}`).join(', ')})` : '';
}

export function cpuText(extra: Metrics): string {
  const others = extra.otherCores!;
  return (
    `CPU server ${fmtPct(extra.serverCpu!)}${partsText(extra)} (${fmtPct(extra.serverSysShare!)} of it in the kernel), bench ${fmtPct(extra.benchCpu!)}, others ${others.toFixed(2)} cores` +
    (others >= QUIET_CORES ? ' [CONTENDED]' : '')
  );
}

/** The code under test: the commit, and how many files of the server and shared differ from it. */
export function codeVersion(): string {
  if (SERVER_DIR) return `server from ${SERVER_DIR}`;
  const how = BUNDLE ? ' (server run from its bundle, apps/server/dist)' : ' (server run through tsx)';
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    const head = git('log', '-1', '--format=%h %cI %s');
    const dirty = git('status', '--porcelain', '--', 'apps/server', 'packages/shared').split('\n').filter(Boolean).length;
    return `${head}${dirty > 0 ? ` + ${dirty} uncommitted file(s) in apps/server, packages/shared` : ''}${how}`;
  } catch {
    return `unknown (no git)${how}`;
  }
}

export async function diskProbe(when: string): Promise<string> {
  const tmp = os.tmpdir();
  const sync = diskSyncLatencyMs(tmp);
  const sq = await sqliteCommitProbe(tmp);
  return (
    `disk (${when}): write 4 KiB + fdatasync p50 ${fmtMs(sync.p50)}, p99 ${fmtMs(sync.p99)}; ` +
    `SQLite WAL+FULL one-row commits: ${fmtInt(sq.commitsPerS)}/s, mean ${fmtMs(sq.meanMs)}, p99 ${fmtMs(sq.p99Ms)}`
  );
}

export function say(line: string): void {
  process.stdout.write(line + '\n');
}

// ---------------------------------------------------------------------------------------------
// Verification: after the server stopped, the readings table must hold what was acknowledged.

/** Readings of the devices `<prefix>_…` the server stored: in its SQLite file, or its PostgreSQL database. */
export async function storedReadingsOf(srv: RunningServer, prefix: string): Promise<number> {
  return srv.database ? countReadings(srv.database.url, prefix) : storedReadings(srv.dataDir!, prefix);
}

export function storedReadings(dataDir: string, prefix: string): number {
  const db = new Database(path.join(dataDir, 'agua.db'), { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare(`SELECT COUNT(*) AS n FROM readings WHERE device_id LIKE ? || '\\_%' ESCAPE '\\'`).get(prefix) as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}

export async function stopAndCheck(
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

export const profileReports: string[] = [];
export function collectProfile(srv: RunningServer, scenario: string): void {
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

export function profDirFor(scenario: string): string | undefined {
  if (!PROFILE_DIR) return undefined;
  const d = path.join(PROFILE_DIR, scenario);
  fs.mkdirSync(d, { recursive: true });
  return d;
}

/** The processes of a server on PostgreSQL: the server child and the PostgreSQL cluster (with its WAL). */
export function subjectOf(srv: RunningServer): Measurable {
  if (!srv.database || !servers.pgCluster) return srv.child;
  return new Composite({ node: srv.child, postgres: servers.pgCluster }, walProbe(PG_ADMIN_URL));
}
/** Probes opened by subjectOf, closed at the end. */
export const openProbes = new Set<Measurable>();

/** Processes the scenarios share, set by the entry point. */
export const servers = {
  /** PostgreSQL's postmaster and its children (on --database postgres). */
  pgCluster: null as PgCluster | null,
  /** The ceiling server (bare Fastify, bare Aedes), kept running while the figures it bounds are measured. */
  ceiling: null as RunningServer | null,
};

/**
 * A server under test, on a fresh SQLite folder, or with --database postgres on a fresh database
 * of its own (created here; disposeServer drops it).
 */
export async function startServer(opts: { cpuProfDir?: string; env?: Record<string, string> }): Promise<RunningServer> {
  let database: BenchDatabase | undefined;
  if (PG) {
    database = await createBenchDatabase(PG_ADMIN_URL);
    say(`  database: ${describeDatabase(database.url)} (fresh, DATABASE_URL; dropped when this server is done)`);
  }
  return startAguaServer({ ...opts, serverDir: SERVER_DIR, bundle: BUNDLE, ...(database ? { database } : {}) });
}

