#!/usr/bin/env node
// `npm run screens`: the screenshots in docs/screens/ (and the two the web app manifest shows in
// apps/web/public/screenshots/), taken anew from the running system so that they stay current.
// Starts the whole system on its demo data (fixed simulator seed, free ports, a temporary data
// folder), lets the simulated devices build a minute of history, then photographs the dashboard,
// the alarms screen and the control-room view at 1440 and 390 px, light and dark, in Debian's
// Chromium.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'docs/screens');
const manifestShots = path.join(root, 'apps/web/public/screenshots');
const SCREENS = [
  ['dashboard', '/'],
  ['alarms', '/alarms'],
  ['wall', '/wall'],
];
const SIZES = [
  ['1440', { width: 1440, height: 900 }],
  ['390', { width: 390, height: 844 }],
];
const SETTLE_MS = Number(process.env.SCREENS_SETTLE_MS ?? 60_000);

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url, server) {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error('the server exited before it was ready');
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the server did not answer /api/health within 180 s');
}

const [port, mqttPort] = [await freePort(), await freePort()];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-screens-'));
const url = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, [path.join(root, 'tools/start.mjs')], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, PORT: String(port), MQTT_PORT: String(mqttPort), DATA_DIR: dataDir, HOST: '127.0.0.1', DEMO: 'true', SIMULATE: 'true', SIMULATOR_SEED: '20261124', LOG_LEVEL: 'warn' },
});
let browser;
try {
  await waitForHealth(url, server);
  console.log(`screens: the system answers on ${url}; letting the devices run ${SETTLE_MS / 1000} s`);
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  fs.mkdirSync(out, { recursive: true });
  fs.mkdirSync(manifestShots, { recursive: true });
  for (const theme of ['light', 'dark']) {
    for (const [sizeName, viewport] of SIZES) {
      const context = await browser.newContext({ viewport, colorScheme: theme, locale: 'es-ES', timezoneId: 'Europe/Madrid' });
      const page = await context.newPage();
      await page.goto(`${url}/login`);
      await page.getByPlaceholder('Usuario', { exact: true }).fill('operator');
      await page.getByPlaceholder('Contraseña', { exact: true }).fill('operator123');
      await page.getByRole('button', { name: 'Acceder al Sistema' }).click();
      await page.waitForURL(`${url}/`);
      for (const [name, route] of SCREENS) {
        await page.goto(`${url}${route}`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.waitForTimeout(1_500);
        const file = path.join(out, `${name}-${sizeName}-${theme}.png`);
        await page.screenshot({ path: file });
        console.log(`screens: ${path.relative(root, file)}`);
        if (name === 'dashboard' && theme === 'light') fs.copyFileSync(file, path.join(manifestShots, `dashboard-${sizeName === '1440' ? 'wide' : 'narrow'}.png`));
      }
      await context.close();
    }
  }
} finally {
  await browser?.close();
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
