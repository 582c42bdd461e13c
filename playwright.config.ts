import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { freePort } from './apps/server/test/helpers/net';

// Free ports are chosen once in the main process; workers inherit them through the environment.
process.env.E2E_PORT ??= String(await freePort());
process.env.E2E_MQTT_PORT ??= String(await freePort());
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'agua-e2e-'));
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json']],
  use: {
    baseURL,
    locale: 'es-ES',
    timezoneId: 'Europe/Madrid',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    },
  },
  webServer: {
    command: 'node tools/start.mjs',
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: process.env.E2E_PORT,
      MQTT_PORT: process.env.E2E_MQTT_PORT,
      DATA_DIR: process.env.E2E_DATA_DIR,
      HOST: '127.0.0.1',
      DEMO: 'true',
      SIMULATE: 'true',
      // The same water levels on every run: a failure can be replayed.
      SIMULATOR_SEED: '20261124',
      // The demo gate's own faults would cross the gate journeys at a random moment.
      SIMULATOR_GATE_FAULTS: 'false',
      LOG_LEVEL: 'warn',
      // Sign-in lockout would trip over the many deliberate failures of the suite.
      LOGIN_MAX_FAILURES_PER_ADDRESS: '1000',
      LOGIN_MAX_FAILURES_PER_USER: '1000',
      // Push goes to a local endpoint of the test (plain http on loopback), with links on this address.
      PUBLIC_URL: baseURL,
      PUSH_ALLOW_HTTP: 'true',
      PUSH_ALLOW_PRIVATE: 'true',
    },
  },
});
