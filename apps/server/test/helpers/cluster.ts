// Several instances of the real server (child processes) on one PostgreSQL database and one
// Redis of the test's own, each with its embedded broker: the set-up of docs/operations.md on one machine.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { killAll, signIn, spawnServer, type Child } from './child-server';
import { freePort } from './net';
import { createTestDatabase, dropTestDatabase } from './postgres';
import pg from 'pg';
import { openLive, type LiveSocket } from './protocol';
import { startRedis, type TestRedis } from './redis-server';
import { tempDataDir, type DemoRole } from './server';

export interface Instance {
  name: string;
  child: Child;
  url: string;
  mqttUrl: string;
  dataDir: string;
}

export interface TestCluster {
  instances: Instance[];
  redis: TestRedis;
  databaseUrl: string;
  metricsToken: string;
  /** Starts one more instance (or one again under an old name) on the same database and Redis. */
  add(name: string): Promise<Instance>;
  /** Signs in on an instance (or through a balancer: any base URL); the Cookie header value. */
  login(at: { url: string }, role?: DemoRole): Promise<string>;
  /** A live socket on an instance (or through a balancer), once its hello has come. */
  live(at: { url: string }, cookie: string): Promise<LiveSocket>;
  /** A figure of the instance's /metrics: the first sample of `name` whose labels hold every one of `labels`; null when absent or unanswered. */
  metric(instance: Instance, name: string, labels?: string[]): Promise<number | null>;
  /** Whether the instance says it is the leader (agua_leader in its metrics); null when it does not answer. */
  isLeader(instance: Instance): Promise<boolean | null>;
  destroy(): Promise<void>;
}

export async function startCluster(names: string[], env: Record<string, string> = {}): Promise<TestCluster> {
  const dbDir = tempDataDir();
  const databaseUrl = await createTestDatabase(dbDir);
  const redis = await startRedis();
  const metricsToken = randomBytes(24).toString('hex');
  const instances: Instance[] = [];
  const add = async (name: string): Promise<Instance> => {
    const dataDir = tempDataDir();
    const mqttPort = await freePort();
    const child = await spawnServer(dataDir, {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      INSTANCE_ID: name,
      MQTT_PORT: String(mqttPort),
      METRICS_TOKEN: metricsToken,
      LOG_LEVEL: 'info',
      ...env,
    });
    const instance = { name, child, url: child.url, mqttUrl: `mqtt://127.0.0.1:${mqttPort}`, dataDir };
    instances.push(instance);
    return instance;
  };
  for (const name of names) await add(name);
  const metric = async (instance: Instance, name: string, labels: string[] = []): Promise<number | null> => {
    try {
      const text = await (await fetch(`${instance.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
      const line = text.split('\n').find((l) => (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) && labels.every((label) => l.includes(label)));
      return line ? Number(line.trim().split(' ').at(-1)) : null;
    } catch {
      return null;
    }
  };
  return {
    instances,
    redis,
    databaseUrl,
    metricsToken,
    add,
    login: (at, role = 'operator') => signIn(at, role),
    live: async (at, cookie) => {
      const opened = await openLive(at, { cookie, origin: at.url });
      if (!opened.live) throw new Error(`live socket on ${at.url} refused: ${opened.status}`);
      await opened.live.next((f) => f.type === 'hello');
      return opened.live;
    },
    metric,
    isLeader: async (instance) => {
      const leader = await metric(instance, 'agua_leader');
      return leader === null ? null : leader === 1;
    },
    destroy: async () => {
      await killAll(instances.map((i) => i.child));
      await redis.destroy();
      await dropTestDatabase(dbDir);
      for (const dir of [dbDir, ...instances.map((i) => i.dataDir)]) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A device's readings in the cluster's database, from `fromTsMs` on: how many, and how many distinct values (tests send value = seq / 1000). */
export async function storedReadings(databaseUrl: string, deviceId: string, fromTsMs = 0): Promise<{ total: number; distinct: number; values: number[] }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ v: number }>('SELECT value_num::float8 AS v FROM readings WHERE device_id = $1 AND ts_ms >= $2 ORDER BY value_num', [deviceId, fromTsMs]);
    const values = rows.map((r) => Number(r.v));
    return { total: values.length, distinct: new Set(values).size, values };
  } finally {
    await client.end();
  }
}
