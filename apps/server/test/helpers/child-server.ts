// The real server as a child process (the built bundle, server-bundle.ts), for tests that kill it
// with SIGKILL: its own process group, so the signal reaches everything it started.
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './net';
import { testDatabaseEnv } from './postgres';
import { sleep } from './protocol';
import { DEMO_PASSWORDS, sessionCookieOf, type DemoRole } from './server';
import { REPO_ROOT, serverCommand } from './server-bundle';


export interface Child {
  proc: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the server on DATA_DIR (demo data, no simulator) and waits until it is healthy. */
export async function spawnServer(dataDir: string, env: Record<string, string> = {}): Promise<Child> {
  const port = await freePort();
  let out = '';
  const [command, args] = serverCommand();
  const proc = spawn(command, args, {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ...(await testDatabaseEnv(dataDir)),
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: '0',
      SIMULATE: 'false',
      DEMO: 'true',
      WEB_DIST_DIR: '',
      LOG_LEVEL: 'warn',
      DEVICE_RATE_LIMIT: '0',
      ...env,
    },
  });
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 45_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited early (${proc.exitCode}):\n${out}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not become healthy:\n${out}`);
    await sleep(100);
  }
  return { proc, url, output: () => out, exited };
}

/**
 * Signs in with a demo account on a server reached by its URL (a child process, a cluster instance,
 * a load balancer in front of them) and returns the session cookie; anything but 200 is an error.
 */
export async function signIn(at: { url: string }, role: DemoRole = 'admin'): Promise<string> {
  const res = await fetch(`${at.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: at.url },
    body: JSON.stringify(DEMO_PASSWORDS[role]),
  });
  if (res.status !== 200) throw new Error(`sign-in as ${role} on ${at.url}: ${res.status} ${await res.text()}`);
  return sessionCookieOf(res);
}

export function killGroup(child: Child, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.proc.pid!, signal);
  } catch {
    // already gone
  }
}

/** Waits until no process of the child's group is left (npx, tsx and the server itself). */
export async function groupGone(child: Child, timeoutMs = 20_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      process.kill(-child.proc.pid!, 0);
    } catch {
      return true;
    }
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
}

/** Kills every child still running (afterAll). */
export async function killAll(children: Child[]): Promise<void> {
  for (const c of children) {
    if (c.proc.exitCode === null && c.proc.signalCode === null) {
      killGroup(c, 'SIGKILL');
      await c.exited;
    }
    if (!(await groupGone(c, 5000))) killGroup(c, 'SIGKILL');
  }
}

/** Runs a server start that is expected to stop by itself (a refused configuration): its exit code and output. */
export async function runUntilExit(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const [command, args] = serverCommand();
  const proc = spawn(command, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: '0', MQTT_PORT: '0', LOG_LEVEL: 'warn', WEB_DIST_DIR: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((resolve) => proc.once('exit', resolve));
  return { code, out };
}
