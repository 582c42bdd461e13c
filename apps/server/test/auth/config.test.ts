// Configuration (docs/product.md "Configuration"): a bad value stops the start with a message naming the variable.
import fs from 'node:fs';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { ConfigError, loadConfig } from '../../src/config/env';
import { tempDataDir } from '../helpers/server';
import { runServerBundle } from './auth-helpers';

function configErrorOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

/** A TCP server holding a free port on 127.0.0.1. */
async function occupyPort(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      mqttPort: 1883,
      demo: true,
      simulate: true,
      deviceOfflineAfterS: 15,
      deviceRateLimit: 50,
      commandTimeoutS: 10,
      sessionTtlH: 12,
      loginMaxFailuresPerUser: 5,
      loginMaxFailuresPerAddress: 20,
      allowedOrigins: [],
      retentionDays: 365,
      cookieSecure: false,
      simulatorSeed: null,
      simulatorGateFaults: true,
    });
    expect(c.dataDir.endsWith('data')).toBe(true);
  });

  it('reads good values', () => {
    const c = loadConfig({
      PORT: '0',
      MQTT_PORT: '1884',
      DEMO: 'false',
      DEVICE_OFFLINE_AFTER_S: '30',
      LOGIN_MAX_FAILURES_PER_USER: '3',
      LOGIN_MAX_FAILURES_PER_ADDRESS: '7',
      SESSION_TTL_H: '8',
      ALLOWED_ORIGINS: 'https://agua.example.org/, https://b.example:8443',
      COOKIE_SECURE: 'true',
      SIMULATOR_SEED: '4294967295',
    });
    expect(c).toMatchObject({
      port: 0,
      mqttPort: 1884,
      demo: false,
      simulate: false, // SIMULATE = DEMO
      deviceOfflineAfterS: 30,
      loginMaxFailuresPerUser: 3,
      loginMaxFailuresPerAddress: 7,
      sessionTtlH: 8,
      allowedOrigins: ['https://agua.example.org', 'https://b.example:8443'],
      cookieSecure: true,
      simulatorSeed: 4294967295,
    });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['PORT', '0x50'],
    ['MQTT_PORT', 'mqtt'],
    ['MQTT_PORT', '65536'],
    ['DEVICE_OFFLINE_AFTER_S', 'quince'],
    ['DEVICE_OFFLINE_AFTER_S', '0'],
    ['DEVICE_OFFLINE_AFTER_S', '-5'],
    ['DEVICE_OFFLINE_AFTER_S', '1e3'],
    ['DEVICE_RATE_LIMIT', 'many'],
    ['COMMAND_TIMEOUT_S', '0'],
    ['SESSION_TTL_H', '0'],
    ['SESSION_TTL_H', 'doce'],
    ['LOGIN_MAX_FAILURES_PER_USER', '0'],
    ['LOGIN_MAX_FAILURES_PER_ADDRESS', 'veinte'],
    ['RETENTION_DAYS', '0'],
    ['DEMO', 'maybe'],
    ['DEMO', 'si'],
    ['SIMULATE', 'perhaps'],
    ['SIMULATOR_SEED', 'abc'],
    ['SIMULATOR_SEED', '4294967296'],
    ['SIMULATOR_SEED', '-1'],
    ['SIMULATOR_GATE_FAULTS', 'sometimes'],
    ['COOKIE_SECURE', 'on-tls'],
    ['ALLOWED_ORIGINS', 'agua.example.org'],
    ['ALLOWED_ORIGINS', 'https://agua.example.org/panel'],
    ['LOG_LEVEL', 'verbose'],
    ['HOST', 'bad host; rm -rf'],
    ['METRICS_PORT', 'nueve'],
    ['METRICS_TOKEN', 'corto'],
    ['METRICS_TOKEN', 'with spaces in the token'],
  ])('refuses %s=%s with a ConfigError naming the variable', (name, value) => {
    const err = configErrorOf({ [name]: value });
    expect(err.message).toContain(name);
  });

  it('REDIS_URL needs DATABASE_URL and a redis:// URL; a wrong one is never echoed', () => {
    for (const env of <Array<Record<string, string>>>[{ REDIS_URL: 'redis://:secret@cache:6379' }, { DATABASE_URL: 'postgres://db/agua', REDIS_URL: 'http://:secret@cache:6379' }, { DATABASE_URL: 'postgres://db/agua', REDIS_URL: 'hunter2' }]) {
      const err = configErrorOf(env);
      expect(err.message).toContain('REDIS_URL');
      expect(err.message).not.toContain(':secret@');
      expect(err.message).not.toContain('hunter2');
    }
    expect(loadConfig({ DATABASE_URL: 'postgres://db/agua', REDIS_URL: 'redis://:secret@cache:6379/2' }).redisUrl).toBe('redis://:secret@cache:6379/2');
    expect(loadConfig({}).redisUrl).toBeNull();
  });

  it('DATABASE_URL selects PostgreSQL, turns the demo off unless asked for, and is never echoed when wrong', () => {
    expect(loadConfig({}).databaseUrl).toBeNull();
    expect(loadConfig({}).demo).toBe(true);
    const pg = loadConfig({ DATABASE_URL: 'postgres://agua:secret@db/agua' });
    expect(pg.databaseUrl).toBe('postgres://agua:secret@db/agua');
    expect(pg.demo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgresql://agua:secret@db/agua', DEMO: 'true' }).demo).toBe(true);
    for (const bad of ['mysql://agua:Pw4Db@db/agua', 'postgres://agua:Pw4Db@db', 'not a url Pw4Db']) {
      const err = configErrorOf({ DATABASE_URL: bad });
      expect(err.message).toContain('DATABASE_URL');
      expect(err.message).not.toContain('Pw4Db');
    }
  });

  it('external broker: MQTT_URL with the administrative credentials, never echoed; MQTT_CA_FILE only with mqtts', () => {
    expect(loadConfig({}).externalBroker).toBeNull();
    const broker = loadConfig({ MQTT_URL: 'mqtts://agua%40srv:s%3Acret@broker.example' }).externalBroker;
    expect(broker).toEqual({ url: 'mqtts://broker.example:8883', username: 'agua@srv', password: 's:cret', caFile: null, releaseSessions: false });
    expect(loadConfig({ MQTT_URL: 'mqtt://a:b@10.0.0.5:1884' }).externalBroker?.url).toBe('mqtt://10.0.0.5:1884');
    for (const bad of ['mqtt://broker.example:1883', 'http://user:Pw4Broker@broker', 'mqtt://user:Pw4Broker@broker/agua', 'not a url Pw4Broker']) {
      const err = configErrorOf({ MQTT_URL: bad });
      expect(err.message).toContain('MQTT_URL');
      expect(err.message).not.toContain('Pw4Broker');
    }
    expect(configErrorOf({ MQTT_URL: 'mqtt://a:b@broker', MQTT_CA_FILE: '/etc/hostname' }).message).toContain('MQTT_CA_FILE');
    expect(configErrorOf({ MQTT_URL: 'mqtts://a:b@broker', MQTT_CA_FILE: '/nonexistent/ca.pem' }).message).toContain('MQTT_CA_FILE');
    expect(configErrorOf({ MQTT_CA_FILE: '/etc/hostname' }).message).toContain('MQTT_URL');
    expect(configErrorOf({ MQTT_RELEASE_SESSIONS: 'true' }).message).toContain('MQTT_URL');
    expect(configErrorOf({ INSTANCE_ID: 'a b' }).message).toContain('INSTANCE_ID');
    expect(loadConfig({ INSTANCE_ID: 'agua-1' }).instanceId).toBe('agua-1');
    expect(loadConfig({}).instanceId).toBeNull();
  });

  it('notifications: PUBLIC_URL as a base URL, SMTP_URL checked without echoing it, VAPID keys in pairs', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://scada.example/agua' }).publicUrl).toBe('https://scada.example/agua/');
    expect(loadConfig({}).publicUrl).toBeNull();
    expect(loadConfig({ SMTP_URL: 'smtp://u:p@mail.example:587' }).smtpUrl).toBe('smtp://u:p@mail.example:587');
    expect(configErrorOf({ PUBLIC_URL: 'ftp://x' }).message).toContain('PUBLIC_URL');
    const smtp = configErrorOf({ SMTP_URL: 'http://user:secret@mail.example' });
    expect(smtp.message).toContain('SMTP_URL');
    expect(smtp.message).not.toContain('secret');
    expect(configErrorOf({ VAPID_PUBLIC_KEY: 'B'.repeat(87) }).message).toContain('VAPID_PRIVATE_KEY');
  });

  it('names the bad variable even when others are fine', () => {
    const err = configErrorOf({ PORT: '8080', MQTT_PORT: '1883', DEVICE_OFFLINE_AFTER_S: 'x' });
    expect(err.message).toContain('DEVICE_OFFLINE_AFTER_S');
    expect(err.message).not.toMatch(/\bPORT\b(?!_)/);
  });
});

// The three processes run side by side (each with its own data folder) to keep the file fast.
describe.concurrent('starting the real server process with bad configuration', () => {
  const dataDirs: string[] = [];
  afterAll(() => {
    for (const d of dataDirs) fs.rmSync(d, { recursive: true, force: true });
  });

  const baseEnv = () => {
    const dataDir = tempDataDir();
    dataDirs.push(dataDir);
    return { DATA_DIR: dataDir, HOST: '127.0.0.1', DEMO: 'false', SIMULATE: 'false', WEB_DIST_DIR: '', LOG_LEVEL: 'info' };
  };

  it('exits non-zero naming PORT on stderr for PORT=abc', async ({ expect }) => {
    const r = await runServerBundle({ ...baseEnv(), PORT: 'abc', MQTT_PORT: '0' });
    expect(r.code).not.toBe(0);
    expect(r.code).not.toBeNull();
    expect(r.stderr).toContain('PORT');
    expect(r.stderr).toContain('abc');
  });

  it('exits non-zero naming MQTT_PORT when that port is already taken', async ({ expect }) => {
    const busy = await occupyPort();
    try {
      const r = await runServerBundle({ ...baseEnv(), PORT: '0', MQTT_PORT: String(busy.port) });
      expect(r.code).not.toBe(0);
      expect(r.code).not.toBeNull();
      expect(r.stdout + r.stderr).toContain('MQTT_PORT');
      expect(r.stdout + r.stderr).toContain(String(busy.port));
    } finally {
      await busy.close();
    }
  });

  it('exits non-zero naming PORT when the HTTP port is already taken', async ({ expect }) => {
    const busy = await occupyPort();
    try {
      const r = await runServerBundle({ ...baseEnv(), PORT: String(busy.port), MQTT_PORT: '0' });
      expect(r.code).not.toBe(0);
      expect(r.code).not.toBeNull();
      expect(r.stdout + r.stderr).toMatch(/\bPORT\b/);
      expect(r.stdout + r.stderr).not.toContain('MQTT_PORT');
    } finally {
      await busy.close();
    }
  });
});

describe('starting the app in-process with MQTT_PORT taken', () => {
  it('rejects listen() with an error naming MQTT_PORT', async () => {
    const busy = await occupyPort();
    const dataDir = tempDataDir();
    const config = loadConfig({
      DATA_DIR: dataDir,
      PORT: '0',
      MQTT_PORT: String(busy.port),
      HOST: '127.0.0.1',
      DEMO: 'true',
      SIMULATE: 'false',
      WEB_DIST_DIR: '',
      LOG_LEVEL: 'silent',
    });
    const { app } = await buildApp(config);
    try {
      await expect(app.listen({ port: 0, host: '127.0.0.1' })).rejects.toThrow(/MQTT_PORT/);
    } finally {
      await app.close().catch(() => undefined);
      await busy.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
