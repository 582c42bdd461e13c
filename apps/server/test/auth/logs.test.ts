// Logs never hold secrets: the app's default logger redacts passwords, cookies and keys.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED_PATHS } from '../../src/app';
import { tempDataDir } from '../helpers/server';
import { runTsx } from './auth-helpers';

const SECRETS = {
  password: 'Pw-wrong-7f3a9c1e',
  masterPassword: 'Master-wrong-b2d8e4',
  currentPassword: 'Current-pw-5c6d7e',
  newPassword: 'New-pw-9a8b7c6d5e',
  apiKey: 'devkey-secret-1a2b3c4d',
  bearer: 'bearer-secret-0f9e8d7c',
  cookie: 'cookie-token-secret-3e4f5a6b',
  mqttKey: 'mqtt-key-secret-6b5a4f3e',
};

describe('logs never hold secrets', () => {
  let dataDir: string;
  let out: { code: number | null; stdout: string; stderr: string };
  let lines: Array<Record<string, unknown>>;

  beforeAll(async () => {
    dataDir = tempDataDir();
    out = await runTsx('apps/server/test/auth/fixtures/log-probe.ts', {
      DATA_DIR: dataDir,
      PORT: '0',
      MQTT_PORT: '0',
      HOST: '127.0.0.1',
      DEMO: 'true',
      SIMULATE: 'false',
      WEB_DIST_DIR: '',
      LOG_LEVEL: 'trace',
      PROBE_SECRETS: JSON.stringify(SECRETS),
    });
    lines = out.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  }, 30_000);
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('ran the probe: the requests got their expected answers', () => {
    expect(out.code, out.stderr).toBe(0);
    const statuses = JSON.parse(/PROBE_STATUSES (.*)/.exec(out.stderr)![1]!) as Record<string, number>;
    expect(statuses).toEqual({ wrongPassword: 401, wrongMaster: 401, login: 200, changePassword: 422, telemetry: 401, bearer: 401, mqtt: 401 });
    // The logger really wrote (JSON lines on stdout at trace level).
    expect(lines.length).toBeGreaterThan(1);
  });

  it('redacts secret fields of a logged object with the default logger', () => {
    const probe = lines.find((l) => l.msg === 'probe: secrets in a log object');
    expect(probe).toBeDefined();
    // req and res go through Fastify's serializers (no headers), the rest through the redaction paths.
    expect(JSON.stringify(probe!.req ?? {})).not.toMatch(/secret/);
    expect(JSON.stringify(probe!.res ?? {})).not.toMatch(/secret/);
    expect(probe).toMatchObject({
      body: { username: 'viewer', password: '[redacted]', masterPassword: '[redacted]', currentPassword: '[redacted]', newPassword: '[redacted]' },
      device: { apiKey: '[redacted]' },
    });
  });

  it.each(Object.entries(SECRETS))('never writes the %s anywhere in stdout or stderr', (_name, secret) => {
    expect(out.stdout).not.toContain(secret);
    expect(out.stderr).not.toContain(secret);
  });

  it('lists the secret fields in REDACTED_PATHS', () => {
    for (const p of ['req.headers.cookie', 'req.headers.authorization', 'req.headers["x-api-key"]', 'res.headers["set-cookie"]', '*.password', '*.masterPassword', '*.currentPassword', '*.newPassword', '*.apiKey']) {
      expect(REDACTED_PATHS).toContain(p);
    }
  });
});
