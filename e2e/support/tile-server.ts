import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../apps/server/test/helpers/net';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** A one-pixel grey PNG: what a tile server answers, as far as a map is concerned. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNk+A8AAQUBAScY42YAAAAASUVORK5CYII=', 'base64');

/** A real tile server on this machine, counting the tiles asked of it (as a plant's offline one would serve them). */
export async function startTileServer(): Promise<{ url: string; asked: string[]; close: () => Promise<void> }> {
  const asked: string[] = [];
  const server = http.createServer((req, res) => {
    asked.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' });
    res.end(PNG);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, asked, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * One more server of the suite's build, started with the environment given (MAP_TILE_URL, say),
 * on its own SQLite folder and ports, without the simulator. The suite's shared server keeps its
 * own configuration; a journey that needs another starts this one.
 */
export async function startExtraServer(env: Record<string, string>): Promise<{ url: string; stop: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-e2e-extra-'));
  const [port, mqttPort] = [await freePort(), await freePort()];
  let out = '';
  const proc: ChildProcess = spawn(process.execPath, ['tools/start.mjs'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), MQTT_PORT: String(mqttPort), HOST: '127.0.0.1', DEMO: 'true', SIMULATE: 'false', LOG_LEVEL: 'warn', ...env },
  });
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (proc.exitCode === null) {
      await new Promise<void>((resolve) => {
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      });
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited (${proc.exitCode}): ${out}`);
    if (await fetch(`${url}/api/health`).then((r) => r.status === 200, () => false)) return { url, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server not healthy: ${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
