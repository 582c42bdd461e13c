// The server as `npm start` runs it (the built bundle, in its own process), for the benchmarks
// that measure it from outside: bench:history and bench:water.
import { spawn, type ChildProcess } from 'node:child_process';
import { buildServer, serverBundle } from '../build-server.mjs';
import { freePort } from './ingest/server-process';

export interface RunningServer {
  child: ChildProcess;
  port: number;
  base: string;
  /** Signs in and returns the Cookie header value (an admin also gives the master password). */
  login(username: string, password: string, masterPassword?: string): Promise<string>;
  stop(): Promise<void>;
}

/** Builds the bundle and starts it on DATA_DIR (demo data, no simulator), waiting until healthy. */
export async function startBundledServer(dataDir: string, env: Record<string, string> = {}): Promise<RunningServer> {
  await buildServer();
  const port = await freePort();
  const child = spawn(process.execPath, ['--enable-source-maps', serverBundle], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), MQTT_PORT: '0', HOST: '127.0.0.1', DEMO: 'true', SIMULATE: 'false', WEB_DIST_DIR: '', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`server exited with ${code}`))));
  const base = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    const up = await Promise.race([fetch(`${base}/api/health`).then((r) => r.ok, () => false), exited]);
    if (up) {
      return {
        child,
        port,
        base,
        async login(username, password, masterPassword) {
          const res = await fetch(`${base}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password, masterPassword }) });
          if (res.status !== 200) throw new Error(`sign-in as ${username}: ${res.status}`);
          return res.headers.getSetCookie()[0]!.split(';')[0]!;
        },
        stop: () =>
          new Promise<void>((resolve) => {
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('server did not start within 30 s');
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** A Markdown table of measure | result | target rows. */
export function printTable(rows: Array<[string, string, string]>): void {
  const widths = [0, 1, 2].map((c) => Math.max(...rows.map((r) => r[c]!.length), ['measure', 'result', 'target'][c]!.length));
  const line = (r: string[]) => `| ${r.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ')} |`;
  console.log(`\n${line(['measure', 'result', 'target'])}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
}
