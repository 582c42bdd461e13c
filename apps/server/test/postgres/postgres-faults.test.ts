// docs/operations.md on PostgreSQL, against a cluster of the test's own: a start that waits for the
// database, a clear stop when it cannot be used, and a restart under load — no 202 while it is
// away, nothing acknowledged lost or stored twice, ingest resuming by itself.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStorage } from '../../src/storage/postgres/postgres-storage';
import { killAll, killGroup, runUntilExit, spawnServer, type Child } from '../helpers/child-server';
import { startPgCluster, type PgCluster } from '../helpers/pg-cluster';
import { createTestDatabase, dropTestDatabase } from '../helpers/postgres';
import { LEVEL_1, levelMsg, sleep } from '../helpers/protocol';
import { startRedis } from '../helpers/redis-server';
import { demoKey, tempDataDir } from '../helpers/server';

const ROOT = new URL('../../../../', import.meta.url).pathname;
const run = promisify(execFile);

/** Starts the server where it is expected to stop by itself; its exit code and everything it printed. */
function post(url: string, seq: number): Promise<number> {
  return fetch(`${url}/api/v1/telemetry`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': demoKey(LEVEL_1) },
    body: JSON.stringify(levelMsg(LEVEL_1, seq / 1000, { seq, boot: 'pg-restart', ts: Date.now() })),
    signal: AbortSignal.timeout(20_000),
  }).then(
    async (res) => {
      await res.arrayBuffer();
      return res.status;
    },
    () => 0,
  );
}

describe('PostgreSQL goes away and comes back', () => {
  let cluster: PgCluster;
  const children: Child[] = [];
  const dirs: string[] = [];
  beforeAll(async () => {
    cluster = await startPgCluster();
  });
  afterAll(async () => {
    await killAll(children);
    cluster?.destroy();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
  const dataDir = () => {
    const d = tempDataDir();
    dirs.push(d);
    return d;
  };

  it('a start waits for PostgreSQL that comes up late, saying what it waits for', async () => {
    cluster.createDatabase('late');
    cluster.stop();
    // Later than the server takes to boot: it must find nothing there and wait.
    setTimeout(() => cluster.start(), 10_000);
    const child = await spawnServer(dataDir(), { DATABASE_URL: cluster.url('late'), LOG_LEVEL: 'info' });
    children.push(child);
    expect(child.output(), child.output()).toContain('waiting for PostgreSQL (DATABASE_URL)');
    expect((await fetch(`${child.url}/api/health`)).status).toBe(200);
    killGroup(child, 'SIGTERM');
    await child.exited;
  }, 60_000);

  it('a database that does not exist stops the start at once, naming DATABASE_URL but not the password', async () => {
    const { code, out } = await runUntilExit({ DATABASE_URL: `postgres://postgres:S3cretPw@127.0.0.1:${cluster.port}/no_such_db`, DATA_DIR: dataDir() });
    expect(code).toBe(1);
    expect(out).toContain('DATABASE_URL');
    expect(out).toContain('no_such_db');
    expect(out).not.toContain('S3cretPw');
  }, 30_000);

  it('a connection lost in the middle of a transaction fails its query, not the process', async () => {
    cluster.createDatabase('midtx');
    const storage = await openPostgresStorage(cluster.url('midtx'), { log: pino({ level: 'silent' }), hold: 'none' });
    try {
      const client = await storage.pool.connect();
      await client.query('BEGIN');
      const sleeping = client.query('SELECT pg_sleep(10)').then(
        () => 'finished',
        (err: { code?: string }) => err.code,
      );
      await sleep(300);
      cluster.stop('fast');
      // Without a listener on the checked-out client, its connection's end is an unhandled
      // 'error' event: the process (here the test's worker) would die.
      expect(await sleeping).toBe('57P01');
      // The connection's end comes after the query's error: it must find a listener then too.
      await sleep(1_000);
      client.release(true);
    } finally {
      cluster.start();
      await storage.close();
    }
  }, 30_000);

  it('restarted under load: no 202 while it is away, every 202 stored once, ingest resumes by itself', async () => {
    cluster.createDatabase('restart');
    const child = await spawnServer(dataDir(), { DATABASE_URL: cluster.url('restart'), DEMO: 'true' });
    children.push(child);

    const accepted = new Set<number>();
    const whileAway: number[] = [];
    let phase: 'up' | 'away' | 'back' = 'up';
    let seq = 0;
    let resumedAfterMs: number | null = null;
    let backAt = 0;
    let running = true;
    // Four devices' worth of senders, each awaiting its answer before the next post.
    const sender = async () => {
      while (running) {
        const mine = seq++;
        const sentIn = phase;
        const status = await post(child.url, mine);
        if (status === 202) {
          accepted.add(mine);
          if (sentIn === 'away' && phase === 'away') whileAway.push(mine);
          if (phase === 'back' && resumedAfterMs === null) resumedAfterMs = Date.now() - backAt;
        } else if (phase === 'up') {
          throw new Error(`refused before the restart: ${status}`);
        } else {
          await sleep(50);
        }
      }
    };
    const senders = Array.from({ length: 4 }, sender);
    await sleep(1_500);
    cluster.stop('fast');
    phase = 'away';
    await sleep(3_000);
    cluster.start();
    backAt = Date.now();
    phase = 'back';
    const deadline = Date.now() + 20_000;
    while (resumedAfterMs === null && Date.now() < deadline) await sleep(100);
    await sleep(1_000);
    running = false;
    await Promise.all(senders);

    expect(whileAway).toEqual([]);
    expect(resumedAfterMs).not.toBeNull();
    expect(accepted.size).toBeGreaterThan(20);

    // Count in the database itself: every acknowledged seq exactly once.
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: cluster.url('restart') });
    await client.connect();
    try {
      const { rows } = await client.query<{ v: number; n: string }>(
        "SELECT value_num AS v, COUNT(*) AS n FROM readings WHERE device_id = $1 GROUP BY value_num",
        [LEVEL_1],
      );
      const stored = new Map(rows.map((r) => [Math.round(r.v * 1000), Number(r.n)]));
      const missing = [...accepted].filter((s) => !stored.has(s));
      const twice = [...stored].filter(([, n]) => n > 1);
      expect(missing).toEqual([]);
      expect(twice).toEqual([]);
    } finally {
      await client.end();
    }
  }, 90_000);
});

describe('one instance per PostgreSQL database (until instances share it through Redis)', () => {
  const children: Child[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    await killAll(children);
    for (const d of dirs) {
      fs.rmSync(d, { recursive: true, force: true });
      await dropTestDatabase(d);
    }
  });

  it('a second instance on the same database stops with a message; the first serves on; user:create still works beside it', async () => {
    const dir = tempDataDir();
    dirs.push(dir);
    const url = await createTestDatabase(dir);
    const [dirA, dirB] = [tempDataDir(), tempDataDir()];
    dirs.push(dirA, dirB);
    const first = await spawnServer(dirA, { DATABASE_URL: url, LOG_LEVEL: 'info' });
    children.push(first);
    expect(first.output()).toContain('runs alone on this PostgreSQL database');
    const { code, out } = await runUntilExit({ DATABASE_URL: url, DATA_DIR: dirB });
    expect(code).toBe(1);
    expect(out).toContain('Another instance already serves the database at DATABASE_URL');
    expect(out).toContain('REDIS_URL');
    // Nor does an instance joined by Redis start beside a lone one (it would share nothing with it).
    const redis = await startRedis();
    try {
      const joined = await runUntilExit({ DATABASE_URL: url, DATA_DIR: dirB, REDIS_URL: redis.url });
      expect(joined.code).toBe(1);
      expect(joined.out).toContain('An instance without REDIS_URL serves the database at DATABASE_URL');
    } finally {
      await redis.destroy();
    }
    expect((await fetch(`${first.url}/api/health`)).status).toBe(200);

    // A tool is not an instance: it borrows the database beside the running server.
    const created = await run(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/user-create.ts', '--username', 'otra', '--name', 'Otra', '--email', 'otra@test.example', '--role', 'viewer'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url, AGUA_PASSWORD: 'clave-segura-123' },
    });
    expect(created.stdout).toContain('creado');
  }, 60_000);
});
