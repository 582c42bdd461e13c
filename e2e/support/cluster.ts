import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../apps/server/test/helpers/net';

/**
 * Two more instances of the built server on a PostgreSQL database and a Redis of this test's
 * own (SCALE.md "several instances"), for journeys that cross instances. The suite's own server
 * is not one of them: it runs on SQLite.
 */
export interface E2eCluster {
  /** Base URLs: a (with the simulated devices) and b. */
  a: string;
  b: string;
  stop(): Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, '../..');
const ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function healthy(url: string, proc: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`instance exited (${proc.exitCode}): ${output()}`);
    const ok = await fetch(`${url}/api/health`).then((r) => r.status === 200, () => false);
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`instance not healthy: ${output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function startE2eCluster(): Promise<E2eCluster> {
  const database = `agua_e2e_${process.pid}_${Date.now()}`;
  await admin((c) => c.query(`CREATE DATABASE ${database}`));
  const redisPort = await freePort();
  const redis = spawn('/usr/bin/redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  for (let i = 0; spawnSync('redis-cli', ['-p', String(redisPort), 'ping'], { encoding: 'utf8' }).stdout.trim() !== 'PONG'; i++) {
    if (i > 100) throw new Error('redis-server did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  const procs: ChildProcess[] = [];
  const start = async (name: string, simulate: boolean): Promise<string> => {
    const [port, mqttPort] = [await freePort(), await freePort()];
    let out = '';
    const proc = spawn(process.execPath, ['tools/start.mjs'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`,
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        INSTANCE_ID: name,
        PORT: String(port),
        MQTT_PORT: String(mqttPort),
        HOST: '127.0.0.1',
        DEMO: 'true',
        SIMULATE: String(simulate),
        SIMULATOR_SEED: '20261127',
        SIMULATOR_GATE_FAULTS: 'false',
        LOG_LEVEL: 'warn',
      },
    });
    proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    procs.push(proc);
    const url = `http://127.0.0.1:${port}`;
    await healthy(url, proc, () => out);
    return url;
  };
  const stop = async () => {
    await Promise.all(
      procs.map(
        (p) =>
          new Promise<void>((resolve) => {
            if (p.exitCode !== null) return resolve();
            p.once('exit', () => resolve());
            p.kill('SIGTERM');
          }),
      ),
    );
    redis.kill('SIGKILL');
    await admin((c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
  };
  try {
    const a = await start('e2e-a', true);
    const b = await start('e2e-b', false);
    return { a, b, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
