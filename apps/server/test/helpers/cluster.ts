// Several instances of the real server (child processes) on one PostgreSQL database and one
// Redis of the test's own, each with its embedded broker: the set-up of SCALE.md on one machine.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { killAll, spawnServer, type Child } from './child-server';
import { freePort } from './net';
import { createTestDatabase, dropTestDatabase } from './postgres';
import { DEMO_PASSWORDS, tempDataDir, type DemoRole } from './server';
import { LiveSocket } from './protocol';
import { WebSocket } from 'ws';
import { startRedis, type TestRedis } from './redis-server';

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
  login(instance: Instance, role?: DemoRole): Promise<string>;
  live(instance: Instance, cookie: string): Promise<LiveSocket>;
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
  return {
    instances,
    redis,
    databaseUrl,
    metricsToken,
    add,
    login: async (instance, role = 'operator') => {
      const { username, password } = DEMO_PASSWORDS[role];
      const res = await fetch(`${instance.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: instance.url },
        body: JSON.stringify({ username, password, ...(role === 'admin' ? { masterPassword: DEMO_PASSWORDS.admin.masterPassword } : {}) }),
      });
      if (res.status !== 200) throw new Error(`login on ${instance.name}: ${res.status} ${await res.text()}`);
      return res.headers.get('set-cookie')!.split(';')[0]!;
    },
    live: async (instance, cookie) => {
      const ws = new WebSocket(`${instance.url.replace('http', 'ws')}/api/v1/live`, { headers: { cookie, origin: instance.url } });
      const live = new LiveSocket(ws);
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      await live.next((f) => f.type === 'hello');
      return live;
    },
    isLeader: async (instance) => {
      try {
        const res = await fetch(`${instance.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
        const line = (await res.text()).split('\n').find((l) => l.startsWith('agua_leader'));
        return line ? line.trim().endsWith(' 1') : null;
      } catch {
        return null;
      }
    },
    destroy: async () => {
      await killAll(instances.map((i) => i.child));
      await redis.destroy();
      await dropTestDatabase(dbDir);
      for (const dir of [dbDir, ...instances.map((i) => i.dataDir)]) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
