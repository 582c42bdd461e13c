/**
 * What bench:cluster runs on, and taking it all down again: a Redis of its own, a fresh
 * PostgreSQL database, the server instances and the sender process. Everything started is
 * recorded here so that `teardown` (on success, failure, ctrl-C or SIGTERM) and, as a last
 * resort, the process's `exit` (synchronously) can remove it.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { MeasuredChild, NodeChild, REPO_ROOT, freePort } from '../ingest/server-process';
import { sleep } from '../ingest/stats';
import type { FromSender, ToSender } from './sender';

export const REDIS_SERVER = '/usr/bin/redis-server';

/** What is up and must come down, in the order teardown takes it down. */
const state = {
  sender: null as ChildProcess | null,
  instances: [] as NodeChild[],
  redis: null as MeasuredChild | null,
  database: null as { name: string; adminUrl: string } | null,
  dirs: [] as string[],
};

// ------------------------------------------------------------------------------------- Redis

/** Whether a Redis on 127.0.0.1:`port` answers PING. */
function pingRedis(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => {
      answer += d.toString();
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
    socket.once('error', () => done(false));
  });
}

/** A redis-server of the bench's own on a free port, no persistence (pub/sub channels are global to a Redis server). */
export async function startRedis(): Promise<{ url: string; child: MeasuredChild }> {
  const port = await freePort();
  const child = new MeasuredChild({
    label: 'redis-server',
    command: REDIS_SERVER,
    args: ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    env: {},
  });
  state.redis = child;
  await child.waitReady(() => pingRedis(port), 10_000);
  return { url: `redis://127.0.0.1:${port}`, child };
}

// ---------------------------------------------------------------------------------- PostgreSQL

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: 'agua-bench-cluster' });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** CREATE DATABASE agua_bench_cluster_<random> on the server of `adminUrl`; returns its URL. */
export async function createDatabase(adminUrl: string): Promise<{ name: string; url: string }> {
  const name = `agua_bench_cluster_${crypto.randomBytes(5).toString('hex')}`;
  await withClient(adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  state.database = { name, adminUrl };
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return { name, url: u.toString() };
}

async function dropDatabase(): Promise<void> {
  const db = state.database;
  if (!db) return;
  // FORCE: an instance that did not stop still holds connections.
  await withClient(db.adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${db.name} WITH (FORCE)`));
  state.database = null;
}

// ----------------------------------------------------------------------------------- instances

export interface Instance {
  name: string;
  child: NodeChild;
  url: string;
}

/** One server instance (`node --import tsx apps/server/src/server.ts`), started and healthy. */
export async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const mqttPort = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `agua-bench-cluster-${name}-`));
  state.dirs.push(dataDir);
  const child = new NodeChild({
    label: `instance ${name}`,
    script: 'apps/server/src/server.ts',
    env: {
      PORT: String(port),
      MQTT_PORT: String(mqttPort),
      HOST: '127.0.0.1',
      INSTANCE_ID: name,
      DATA_DIR: dataDir,
      DEMO: 'true',
      SIMULATE: 'false',
      WEB_DIST_DIR: '',
      LOG_LEVEL: 'warn',
      DEVICE_RATE_LIMIT: '0',
      ...env,
    },
  });
  state.instances.push(child);
  const url = `http://127.0.0.1:${port}`;
  await child.waitHealthy(`${url}/api/health`, 90_000);
  return { name, child, url };
}

// -------------------------------------------------------------------------------------- sender

/** The sender process (sender.ts) over IPC. */
export class Sender {
  private constructor(readonly proc: ChildProcess) {}

  static async start(init: Extract<ToSender, { type: 'init' }>): Promise<Sender> {
    const proc = fork(path.join(import.meta.dirname, 'sender.ts'), [], {
      cwd: REPO_ROOT,
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    state.sender = proc;
    const sender = new Sender(proc);
    const ready = sender.next((m) => m.type === 'ready');
    proc.send(init);
    await ready;
    return sender;
  }

  /** The next message that `accept` takes; rejects when the process exits first. */
  next<T extends FromSender>(accept: (m: FromSender) => m is T): Promise<T>;
  next(accept: (m: FromSender) => boolean): Promise<FromSender>;
  next(accept: (m: FromSender) => boolean): Promise<FromSender> {
    return new Promise((resolve, reject) => {
      const onMessage = (m: FromSender) => {
        if (!accept(m)) return;
        off();
        resolve(m);
      };
      const onExit = (code: number | null) => {
        off();
        reject(new Error(`sender exited (${code})`));
      };
      const off = () => {
        this.proc.off('message', onMessage);
        this.proc.off('exit', onExit);
      };
      this.proc.on('message', onMessage);
      this.proc.once('exit', onExit);
    });
  }

  send(msg: ToSender): void {
    this.proc.send(msg);
  }

  get pid(): number {
    return this.proc.pid!;
  }
}

async function stopSender(): Promise<void> {
  const proc = state.sender;
  if (!proc) return;
  if (proc.exitCode === null && proc.signalCode === null) {
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
  }
  state.sender = null;
}

// ------------------------------------------------------------------------------------ teardown

let tearingDown: Promise<string[]> | null = null;

/** Stops the sender, the instances (graceful, in reverse order), Redis; drops the database; removes temp folders. Returns what failed. */
export function teardown(): Promise<string[]> {
  return (tearingDown ??= (async () => {
    const failed: string[] = [];
    const step = async (what: string, fn: () => Promise<unknown>) => {
      try {
        await fn();
      } catch (err) {
        failed.push(`${what}: ${(err as Error).message}`);
      }
    };
    await step('sender', stopSender);
    for (const child of [...state.instances].reverse()) await step(child.spawnOpts.label, () => child.stop(15_000));
    state.instances = [];
    await step('redis-server', async () => state.redis?.stop(5_000));
    state.redis = null;
    // The instances' pools may take a moment to go after their processes.
    await sleep(200);
    await step('database', dropDatabase);
    for (const dir of state.dirs) fs.rmSync(dir, { recursive: true, force: true });
    state.dirs = [];
    return failed;
  })());
}

/** Last resort on exit (teardown could not run or finish): kill what is left and drop the database synchronously. */
export function teardownSync(): void {
  const procs = [state.sender, ...state.instances.map((c) => c.proc), state.redis?.proc];
  for (const proc of procs) {
    if (!proc?.pid || proc.exitCode !== null || proc.signalCode !== null) continue;
    try {
      process.kill(proc.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  const db = state.database;
  if (db) {
    try {
      execFileSync('psql', ['-X', '-q', db.adminUrl, '-c', `DROP DATABASE IF EXISTS ${db.name} WITH (FORCE)`], { stdio: 'ignore', timeout: 10_000 });
    } catch {
      console.error(`could not drop database ${db.name}: drop it by hand`);
    }
  }
  for (const dir of state.dirs) fs.rmSync(dir, { recursive: true, force: true });
}
