import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp, type ServerModules } from '../../src/app';
import { loadConfig, type Config } from '../../src/config/env';
import type { MetricsServer } from '../../src/features/metrics/metrics.routes';
import type { BackgroundJobs } from '../../src/lib/background-jobs';
import { SqliteIngestStore } from '../../src/storage/ingest/sqlite/sqlite-ingest-store';
import type { SqliteStorage } from '../../src/storage/database';
import { dropTestDatabase, TEST_ENGINE, testDatabaseEnv } from './postgres';

export const DEMO_PASSWORDS = {
  admin: { username: 'admin', password: 'admin123', masterPassword: 'maestra2024' },
  operator: { username: 'operator', password: 'operator123' },
  viewer: { username: 'viewer', password: 'viewer123' },
} as const;
export type DemoRole = keyof typeof DEMO_PASSWORDS;

export interface TestServer {
  app: FastifyInstance;
  /** The server's parts as buildApp composed them: for tests that look inside. */
  modules: ServerModules;
  jobs: BackgroundJobs;
  metricsServer: MetricsServer | null;
  /** http://127.0.0.1:<port> */
  url: string;
  mqttUrl: string;
  mqttPort: number;
  dataDir: string;
  config: Config;
  /** Signs in as a demo role and returns the Cookie header value. */
  login(role: DemoRole): Promise<string>;
  /** fetch against the server; a cookie may be given. */
  fetch(pathname: string, init?: RequestInit & { cookie?: string; json?: unknown }): Promise<Response>;
  close(): Promise<void>;
}

/** A temporary data folder, removed by the caller (or left for a restart test). */
export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'agua-test-'));
}

/**
 * Starts a real server (HTTP on a free port, embedded MQTT on a free port) on a temporary
 * SQLite file, in demo mode without the simulator unless told otherwise; silent unless `logTo`.
 */
export async function startServer(env: Record<string, string> = {}, opts: { dataDir?: string; logTo?: Writable } = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? tempDataDir();
  const config = loadConfig({
    ...(await testDatabaseEnv(dataDir)),
    DATA_DIR: dataDir,
    PORT: '0',
    MQTT_PORT: '0',
    HOST: '127.0.0.1',
    DEMO: 'true',
    SIMULATE: 'false',
    WEB_DIST_DIR: '',
    LOG_LEVEL: 'silent',
    ...env,
  });
  // With logTo, the server's log lines (info and up, JSON) go there instead of nowhere.
  const { app, modules, jobs, metricsServer, mqttPort: brokerPort } = await buildApp(config, opts.logTo ? { logger: { level: 'info', stream: opts.logTo } } : {});
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  const mqttPort = brokerPort() ?? 0;

  const doFetch: TestServer['fetch'] = (pathname, init = {}) => {
    const { cookie, json, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (cookie) headers.set('cookie', cookie);
    if (json !== undefined) headers.set('content-type', 'application/json');
    return fetch(url + pathname, { ...rest, headers, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) });
  };

  return {
    app,
    modules,
    jobs,
    metricsServer,
    url,
    // Where devices connect: the embedded broker, or the external one (MQTT_URL).
    mqttUrl: config.externalBroker?.url ?? `mqtt://127.0.0.1:${mqttPort}`,
    mqttPort,
    dataDir,
    config,
    fetch: doFetch,
    async login(role) {
      const res = await doFetch('/api/v1/auth/login', { method: 'POST', json: DEMO_PASSWORDS[role] });
      if (res.status !== 200) throw new Error(`login as ${role} failed: ${res.status} ${await res.text()}`);
      return sessionCookieOf(res);
    },
    async close() {
      await app.close();
      if (!opts.dataDir) {
        fs.rmSync(dataDir, { recursive: true, force: true });
        if (TEST_ENGINE === 'postgres') await dropTestDatabase(dataDir);
      }
    },
  };
}

/** The `name=value` of the session cookie a response sets. */
export function sessionCookieOf(res: Response): string {
  const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('agua_session='));
  if (!setCookie) throw new Error('no session cookie');
  return setCookie.split(';')[0]!;
}

/** The demo key of a seed device. */
export const demoKey = (deviceId: string) => `demo-key-${deviceId}`;

/** The SQLite storage and writer thread of a server, for the tests about SQLite itself (*.sqlite.test.ts). */
export function sqliteSide(s: TestServer): { storage: SqliteStorage; writer: SqliteIngestStore } {
  const { storage, writer: readingsWriter } = s.modules;
  if (storage.engine !== 'sqlite' || !(readingsWriter instanceof SqliteIngestStore)) throw new Error('this test is about SQLite: run it on SQLite');
  return { storage, writer: readingsWriter };
}
