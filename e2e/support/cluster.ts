import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../apps/server/test/helpers/net';
import { createTestDatabase, dropTestDatabase } from '../../apps/server/test/helpers/postgres';
import { startRedis } from '../../apps/server/test/helpers/redis-server';

/**
 * Two more instances of the built server on a PostgreSQL database and a Redis of this test's
 * own (docs/operations.md "several instances"), for journeys that cross instances. The suite's own server
 * is not one of them: it runs on SQLite.
 */
export interface E2eCluster {
  /** Base URLs: a (with the simulated devices) and b. */
  a: string;
  b: string;
  stop(): Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, '../..');
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
  // The database belongs to a folder, as the server tests' do: a run that dies leaves it to their orphan sweep.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-e2e-cluster-'));
  const databaseUrl = await createTestDatabase(dataDir);
  const redis = await startRedis();
  const procs: ChildProcess[] = [];
  const start = async (name: string, simulate: boolean): Promise<string> => {
    const [port, mqttPort] = [await freePort(), await freePort()];
    let out = '';
    const proc = spawn(process.execPath, ['tools/start.mjs'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        REDIS_URL: redis.url,
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
    await redis.destroy();
    await dropTestDatabase(dataDir);
    fs.rmSync(dataDir, { recursive: true, force: true });
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
