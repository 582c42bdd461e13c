// SCALE.md "Start": with REDIS_URL a start waits for Redis (up to 60 s), and one that cannot use
// it stops with a clear message naming the variable and never the password.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { killAll, spawnServer, type Child } from '../helpers/child-server';
import { createTestDatabase, dropTestDatabase } from '../helpers/postgres';
import { sleep } from '../helpers/protocol';
import { startRedis, type TestRedis } from '../helpers/redis-server';
import { tempDataDir } from '../helpers/server';

const ROOT = new URL('../../../../', import.meta.url).pathname;
const children: Child[] = [];
const redises: TestRedis[] = [];
const dirs: string[] = [];

afterAll(async () => {
  await killAll(children);
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
    const late = (async () => {
      await sleep(3000);
      await redis.start();
    })();
    const child = await spawnServer(dir, { DATABASE_URL: url, REDIS_URL: redis.url, LOG_LEVEL: 'info' });
    children.push(child);
    await late;
    expect(child.output()).toContain('waiting for Redis (REDIS_URL)');
    expect(child.output()).toContain('Redis answers');
    expect((await fetch(`${child.url}/api/health`)).status).toBe(200);
  }, 60_000);

  it('stops at once when Redis refuses the credentials, naming REDIS_URL but not the password', async () => {
    const { dir, url } = await database();
    const redis = await startRedis();
    redises.push(redis);
    spawnSync('redis-cli', ['-p', String(redis.port), 'config', 'set', 'requirepass', 'the-right-one']);
    const started = Date.now();
    const proc = spawn('npx', ['tsx', 'apps/server/src/server.ts'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dir, DATABASE_URL: url, REDIS_URL: `redis://:wrong-secret@127.0.0.1:${redis.port}`, PORT: '0', MQTT_PORT: '0', LOG_LEVEL: 'warn', WEB_DIST_DIR: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((resolve) => proc.once('exit', resolve));
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(out).toContain('REDIS_URL');
    expect(out).toContain('refused the credentials');
    expect(out).not.toContain('wrong-secret');
  }, 60_000);
});
