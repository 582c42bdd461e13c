import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildServer, serverBundle } from '../../build-server.mjs';
import { sleep } from './stats';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

/** A free TCP port on 127.0.0.1 (taken and released at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

let clockTicks: number | undefined;
/** Clock ticks per second of /proc/<pid>/stat (getconf CLK_TCK). */
export function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** CPU seconds (user, system; all threads) a process has used so far; NaN off Linux. */
export function processCpuTimes(pid: number): { user: number; system: number } {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at ") ".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(fields[11]) / ticksPerSecond(), system: Number(fields[12]) / ticksPerSecond() };
  } catch {
    return { user: NaN, system: NaN };
  }
}


/** Bytes a process has caused to be written to storage so far (/proc/<pid>/io write_bytes); NaN off Linux. */
export function processWriteBytes(pid: number): number {
  try {
    const m = /^write_bytes:\s*(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/io`, 'utf8'));
    return m ? Number(m[1]) : NaN;
  } catch {
    return NaN;
  }
}

/** Machine-wide CPU ticks (busy, total) from /proc/stat; busy excludes idle and iowait. */
export function machineCpuTicks(): { busy: number; total: number } {
  try {
    const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = f.reduce((a, b) => a + b, 0);
    return { busy: total - (f[3] ?? 0) - (f[4] ?? 0), total };
  } catch {
    return { busy: NaN, total: NaN };
  }
}

/** CPU seconds used by this (load generator) process so far. */
export function selfCpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** A process whose CPU time and disk writes a measured run accounts for. */
export interface Measurable {
  readonly pid: number;
  cpuTimes(): { user: number; system: number };
  writeBytes(): number;
  /** Every pid whose fsyncs count (default: `pid`). */
  pids?(): number[];
  /** Named parts whose CPU is reported on its own (server child, PostgreSQL). */
  readonly parts?: Record<string, Measurable>;
  /** Asynchronous figures taken at the start and end of a run (PostgreSQL's WAL). */
  readonly probe?: RunProbe;
}

/** Taken around a measured run; `end` returns metrics per second of the run. */
export interface RunProbe {
  begin(): Promise<void>;
  end(seconds: number): Promise<Record<string, number>>;
  close(): Promise<void>;
}

/** CPU seconds (user + system, all threads) used so far; NaN off Linux. */
export function cpuSecondsOf(m: Measurable): number {
  const t = m.cpuTimes();
  return t.user + t.system;
}

/** This process (the load generator), when it is itself what a run measures (raw SQLite). */
export const SELF: Measurable = {
  pid: process.pid,
  cpuTimes: () => processCpuTimes(process.pid),
  writeBytes: () => processWriteBytes(process.pid),
};

export interface SpawnOptions {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

/** A child process under test (its own CPU): output kept for the report, graceful stop. */
export class MeasuredChild implements Measurable {
  /** Children not yet exited, for stopAllChildren. */
  static readonly running = new Set<MeasuredChild>();
  readonly proc: ChildProcess;
  private output = '';
  protected readonly exited: Promise<number | null>;

  constructor(readonly spawnOpts: SpawnOptions) {
    this.proc = spawn(spawnOpts.command, spawnOpts.args, {
      cwd: spawnOpts.cwd ?? REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), ...(process.env.TZ ? { TZ: process.env.TZ } : {}), ...spawnOpts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      this.output += chunk.toString('utf8');
      if (this.output.length > 200_000) this.output = this.output.slice(-100_000);
    };
    this.proc.stdout!.on('data', keep);
    this.proc.stderr!.on('data', keep);
    MeasuredChild.running.add(this);
    this.exited = new Promise((resolve) =>
      this.proc.once('exit', (code) => {
        MeasuredChild.running.delete(this);
        resolve(code);
      }),
    );
  }

  get pid(): number {
    return this.proc.pid!;
  }

  /** What the child printed (warnings, errors). */
  log(): string {
    return this.output;
  }

  cpuTimes(): { user: number; system: number } {
    return processCpuTimes(this.pid);
  }

  writeBytes(): number {
    return processWriteBytes(this.pid);
  }

  /** Polls `ready` until it resolves true, or fails with the child's output. */
  async waitReady(ready: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let exitCode: number | null | undefined;
    void this.exited.then((c) => (exitCode = c));
    while (Date.now() < deadline) {
      if (exitCode !== undefined) throw new Error(`${this.spawnOpts.label} exited (${exitCode}) before it was ready:\n${this.output}`);
      if (await ready().catch(() => false)) return;
      await sleep(100);
    }
    throw new Error(`${this.spawnOpts.label} not ready after ${timeoutMs} ms:\n${this.output}`);
  }

  /** SIGTERM (graceful: the server flushes and closes SQLite), SIGKILL after a timeout. */
  async stop(timeoutMs = 20_000): Promise<number | null> {
    if (this.proc.exitCode !== null) return this.proc.exitCode;
    this.proc.kill('SIGTERM');
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), timeoutMs);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }
}

/** Stops every child still running (the bench was interrupted). */
export async function stopAllChildren(timeoutMs = 5_000): Promise<void> {
  await Promise.allSettled([...MeasuredChild.running].map((c) => c.stop(timeoutMs)));
}

export interface ChildOptions {
  /** TypeScript entry, relative to the repository root. */
  script: string;
  env: Record<string, string>;
  /** When set, the child runs with --cpu-prof and writes its profile here on exit. */
  cpuProfDir?: string;
  label: string;
  /** Working folder and root of `script` (default: this repository). */
  cwd?: string;
}

/** A Node child process running a TypeScript entry through tsx, or a built bundle (its own event loop and CPU). */
export class NodeChild extends MeasuredChild {
  constructor(readonly opts: ChildOptions) {
    // `node --import tsx` is what `npx tsx` runs, minus the npx and tsx-CLI parent processes: the
    // pid we measure and signal is the server itself.
    super({
      label: opts.label,
      command: process.execPath,
      args: [
        ...(opts.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${opts.cpuProfDir}`, '--cpu-prof-interval=500'] : []),
        ...(opts.script.endsWith('.ts') ? ['--import', 'tsx'] : ['--enable-source-maps']),
        opts.script,
      ],
      env: opts.env,
      ...(opts.cwd ? { cwd: opts.cwd } : {}),
    });
  }

  /** Polls a URL until it answers 200, or fails with the child's output. */
  waitHealthy(url: string, timeoutMs = 60_000): Promise<void> {
    return this.waitReady(async () => (await fetch(url)).status === 200, timeoutMs);
  }
}

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
export function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A started server under test (or the ceiling server). */
/** A database of one server of the bench; `drop` is safe to call twice. */
export interface BenchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

export interface RunningServer {
  child: NodeChild;
  httpUrl: string;
  httpPort: number;
  mqttPort: number;
  dataDir: string | null;
  /** The server's PostgreSQL database (DATABASE_URL), when it runs on one; dropped by disposeServer. */
  database?: BenchDatabase;
}

export interface StartServerOptions {
  /** Extra environment (e.g. DEVICE_RATE_LIMIT). */
  env?: Record<string, string>;
  cpuProfDir?: string;
  /** Another checkout of the project to run the server from (A/B comparisons); default: this one. */
  serverDir?: string;
  /** Run on this PostgreSQL database (DATABASE_URL) instead of SQLite in the data folder. */
  database?: BenchDatabase;
  /** Run the server bundle `npm start` runs (apps/server/dist, built first when stale) instead of the sources through tsx. */
  bundle?: boolean;
}

/**
 * Starts apps/server/src/server.ts in a child process on a fresh temporary data folder: SQLite in
 * it, or the PostgreSQL database of `opts.database` (which the server then owns: dropped with it).
 */
export async function startAguaServer(opts: StartServerOptions = {}): Promise<RunningServer> {
  const httpPort = await freePort();
  const mqttPort = await freePort();
  // Under the OS temp folder, so on the machine's real disk here (ext4) unless /tmp is a tmpfs:
  // the fsync of synchronous=FULL is part of what is measured.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-bench-'));
  if (opts.bundle) await buildServer();
  const child = new NodeChild({
    label: 'server',
    script: opts.bundle ? serverBundle : 'apps/server/src/server.ts',
    ...(opts.serverDir ? { cwd: opts.serverDir } : {}),
    cpuProfDir: opts.cpuProfDir,
    env: {
      PORT: String(httpPort),
      MQTT_PORT: String(mqttPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO: 'true',
      SIMULATE: 'false',
      LOG_LEVEL: 'warn',
      WEB_DIST_DIR: '',
      DEVICE_RATE_LIMIT: '0',
      ...(opts.database ? { DATABASE_URL: opts.database.url } : {}),
      ...opts.env,
    },
  });
  const httpUrl = `http://127.0.0.1:${httpPort}`;
  try {
    await child.waitHealthy(`${httpUrl}/api/health`);
  } catch (err) {
    await child.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    await opts.database?.drop();
    throw err;
  }
  return { child, httpUrl, httpPort, mqttPort, dataDir, ...(opts.database ? { database: opts.database } : {}) };
}

/** Stops a server (if still running), removes its data folder and drops its database; safe to call twice. */
export async function disposeServer(srv: RunningServer): Promise<void> {
  await srv.child.stop();
  if (srv.dataDir) fs.rmSync(srv.dataDir, { recursive: true, force: true });
  await srv.database?.drop();
}

/** Starts the ceiling: a bare Fastify 5 route and a bare Aedes broker (tools/bench/ingest/ceiling-server.ts). */
export async function startCeilingServer(opts: { cpuProfDir?: string } = {}): Promise<RunningServer> {
  const httpPort = await freePort();
  const mqttPort = await freePort();
  const child = new NodeChild({
    label: 'ceiling server',
    script: 'tools/bench/ingest/ceiling-server.ts',
    cpuProfDir: opts.cpuProfDir,
    env: { PORT: String(httpPort), MQTT_PORT: String(mqttPort) },
  });
  const httpUrl = `http://127.0.0.1:${httpPort}`;
  try {
    await child.waitHealthy(`${httpUrl}/health`);
  } catch (err) {
    await child.stop();
    throw err;
  }
  return { child, httpUrl, httpPort, mqttPort, dataDir: null };
}

/** The filesystem type a path lives on (from /proc/mounts; longest matching mount point). */
export function filesystemOf(p: string): string {
  try {
    const mounts = fs
      .readFileSync('/proc/mounts', 'utf8')
      .split('\n')
      .map((l) => l.split(' '))
      .filter((f) => f.length >= 3);
    const real = fs.realpathSync(p);
    let best: string[] | undefined;
    for (const m of mounts) {
      const mp = m[1]!;
      if ((real === mp || real.startsWith(mp.endsWith('/') ? mp : mp + '/')) && (!best || mp.length > best[1]!.length)) best = m;
    }
    return best ? `${best[2]} (${best[0]} on ${best[1]})` : 'unknown';
  } catch {
    return 'unknown';
  }
}
