// The whole system on its demo data for tools that look at it (screenshots, Lighthouse): `npm
// start` on free ports and a temporary data folder, the simulator with a fixed seed.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
export const chromiumPath = () => process.env.CHROMIUM_PATH || '/usr/bin/chromium';

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

/** Starts the system; resolves once it answers, with its address and a stop that removes its data. */
export async function startDemoSystem() {
  const [port, mqttPort] = [await freePort(), await freePort()];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-demo-'));
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [path.join(root, 'tools/start.mjs')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PORT: String(port), MQTT_PORT: String(mqttPort), DATA_DIR: dataDir, HOST: '127.0.0.1', DEMO: 'true', SIMULATE: 'true', SIMULATOR_SEED: '20261124', LOG_LEVEL: 'warn' },
  });
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(url, server);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, stop };
}

/** Signs in through the login page as the demo operator. */
export async function signInAsOperator(page, url) {
  await page.goto(`${url}/login`);
  await page.getByPlaceholder('Usuario', { exact: true }).fill('operator');
  await page.getByPlaceholder('Contraseña', { exact: true }).fill('operator123');
  await page.getByRole('button', { name: 'Acceder al Sistema' }).click();
  await page.waitForURL(`${url}/`);
}
