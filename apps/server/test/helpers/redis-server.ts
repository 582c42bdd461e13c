// A Redis of the test's own (Debian's /usr/bin/redis-server) on a free port, keeping nothing on
// disk, for tests that stop and restart it: the machine's Redis on 6379 is never touched.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './net';

export const REDIS_SERVER = '/usr/bin/redis-server';

export interface TestRedis {
  port: number;
  /** redis://127.0.0.1:<port> */
  url: string;
  /** Stops it as a crash would (SIGKILL): its connections break. */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty: it keeps nothing). */
  start(): Promise<void>;
  destroy(): Promise<void>;
}

function ping(port: number): boolean {
  return spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout.trim() === 'PONG';
}

export async function startRedis(): Promise<TestRedis> {
  if (!fs.existsSync(REDIS_SERVER)) throw new Error(`Redis is needed at ${REDIS_SERVER} (Debian: redis-server)`);
  const port = await freePort();
  let proc: ChildProcess | null = null;
  const start = async () => {
    proc = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const deadline = Date.now() + 10_000;
    while (!ping(port)) {
      if (Date.now() > deadline) throw new Error(`redis-server did not answer on ${port}`);
      await sleep(50);
    }
  };
  const stop = async () => {
    const p = proc;
    proc = null;
    if (!p || p.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      p.once('exit', () => resolve());
      p.kill('SIGKILL');
    });
  };
  await start();
  return { port, url: `redis://127.0.0.1:${port}`, stop, start, destroy: stop };
}
