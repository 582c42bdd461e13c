// docs/operations.md "Start": with REDIS_URL a start waits for Redis (up to 60 s), and one that cannot use
// it stops with a clear message naming the variable and never the password.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runUntilExit } from '../helpers/child-server';
import { freePort } from '../helpers/net';
import { createTestDatabase, dropTestDatabase } from '../helpers/postgres';
import { sleep, waitFor } from '../helpers/protocol';
import { startRedis, type TestRedis } from '../helpers/redis-server';
import { tempDataDir } from '../helpers/server';
import { REPO_ROOT, serverCommand } from '../helpers/server-bundle';

const redises: TestRedis[] = [];
const dirs: string[] = [];

afterAll(async () => {
  for (const r of redises) await r.destroy();
  for (const d of dirs) {
    await dropTestDatabase(d);
    fs.rmSync(d, { recursive: true, force: true });
  }
}, 60_000);

async function database(): Promise<{ dir: string; url: string }> {
  const dir = tempDataDir();
  dirs.push(dir);
  return { dir, url: await createTestDatabase(dir) };
}

describe('starting with REDIS_URL', () => {
  it('waits for a Redis that comes up late, saying what it waits for, and serves once it answers', async () => {
    const { dir, url } = await database();
    const redis = await startRedis();
    redises.push(redis);
    await redis.stop();
    const port = await freePort();
    const [command, args] = serverCommand();
    const proc = spawn(command, args, {
      cwd: REPO_ROOT,
      detached: true,
      env: { ...process.env, DATA_DIR: dir, DATABASE_URL: url, REDIS_URL: redis.url, PORT: String(port), HOST: '127.0.0.1', MQTT_PORT: '0', SIMULATE: 'false', LOG_LEVEL: 'info', WEB_DIST_DIR: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (out += c.toString()));
    try {
      // Redis comes up only once the server says it waits for it (and a little later).
      await waitFor(() => out.includes('waiting for Redis (REDIS_URL)'), 45_000, 50);
      await sleep(1500);
      expect(out).not.toContain('Server listening');
      await redis.start();
      await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.status, () => 0)) === 200, 20_000, 100);
      expect(out).toContain('Redis answers');
    } finally {
      try {
        process.kill(-proc.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }, 60_000);

  it('stops at once when Redis refuses the credentials, naming REDIS_URL but not the password', async () => {
    const { dir, url } = await database();
    const redis = await startRedis();
    redises.push(redis);
    spawnSync('redis-cli', ['-p', String(redis.port), 'config', 'set', 'requirepass', 'the-right-one']);
    const started = Date.now();
    const { code, out } = await runUntilExit({ DATA_DIR: dir, DATABASE_URL: url, REDIS_URL: `redis://:wrong-secret@127.0.0.1:${redis.port}` });
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(out).toContain('REDIS_URL');
    expect(out).toContain('refused the credentials');
    expect(out).not.toContain('wrong-secret');
  }, 60_000);
});
