// A real Mosquitto 2 (Debian's /usr/sbin/mosquitto) with the dynamic security plugin, started by a
// test on a free port in a folder of its own: the machine's broker on 1883 is never touched.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitForPort } from './net';

export const MOSQUITTO = '/usr/sbin/mosquitto';
export const DYNSEC_PLUGIN = '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so';

export interface TestMosquitto {
  port: number;
  /** mqtt://127.0.0.1:<port> */
  url: string;
  /** MQTT_URL for the server: the administrative client made by `mosquitto_ctrl dynsec init`. */
  adminUrl: string;
  adminUser: string;
  adminPassword: string;
  dir: string;
  /** Runs `mosquitto_ctrl dynsec …` as the administrator; its output. */
  ctrl(...args: string[]): string;
  log(): string;
  stop(): Promise<void>;
}

/** The example configuration of docs/external-broker.md, with a test's own port and folder. */
function configFor(dir: string, port: number): string {
  return [
    `listener ${port} 127.0.0.1`,
    'allow_anonymous false',
    'per_listener_settings false',
    `plugin ${DYNSEC_PLUGIN}`,
    `plugin_opt_config_file ${path.join(dir, 'dynamic-security.json')}`,
    'persistence true',
    `persistence_location ${dir}/`,
    // Messages queued for a server session that is away (a restart) must not be dropped.
    'max_queued_messages 1000000',
    'max_inflight_messages 100',
    'message_size_limit 1048576',
    // Small packets (PUBACKs, commands) go at once instead of waiting on Nagle.
    'set_tcp_nodelay true',
    // Started as root in CI: stay root so the test's own folder stays writable.
    'user root',
    `log_dest file ${path.join(dir, 'mosquitto.log')}`,
    'log_type error',
    'log_type warning',
    'log_type notice',
    'log_type information',
    '',
  ].join('\n');
}

/** Starts a broker on a free port (or the given one), with a new administrator (or the given password). */
export async function startMosquitto(opts: { port?: number; adminPassword?: string } = {}): Promise<TestMosquitto> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-mosquitto-'));
  const port = opts.port ?? (await freePort());
  const adminUser = 'admin';
  const adminPassword = opts.adminPassword ?? randomBytes(12).toString('hex');
  const init = spawnSync('mosquitto_ctrl', ['dynsec', 'init', path.join(dir, 'dynamic-security.json'), adminUser, adminPassword], { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`mosquitto_ctrl dynsec init failed: ${init.stderr}`);
  fs.writeFileSync(path.join(dir, 'mosquitto.conf'), configFor(dir, port));
  const proc: ChildProcess = spawn(MOSQUITTO, ['-c', path.join(dir, 'mosquitto.conf')], { stdio: 'ignore' });
  await waitForPort(port, 'mosquitto', { exited: () => proc.exitCode !== null, output: () => readLog(dir) });
  const url = `mqtt://127.0.0.1:${port}`;
  return {
    port,
    url,
    adminUrl: `mqtt://${adminUser}:${adminPassword}@127.0.0.1:${port}`,
    adminUser,
    adminPassword,
    dir,
    ctrl: (...args) => {
      const out = spawnSync('mosquitto_ctrl', ['-h', '127.0.0.1', '-p', String(port), '-u', adminUser, '-P', adminPassword, 'dynsec', ...args], { encoding: 'utf8' });
      if (out.status !== 0) throw new Error(`mosquitto_ctrl dynsec ${args[0]} failed: ${out.stderr}${out.stdout}`);
      return out.stdout;
    },
    log: () => fs.readFileSync(path.join(dir, 'mosquitto.log'), 'utf8'),
    stop: async () => {
      if (proc.exitCode === null) {
        const gone = new Promise((resolve) => proc.once('exit', resolve));
        proc.kill('SIGTERM');
        await gone;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function readLog(dir: string): string {
  try {
    return fs.readFileSync(path.join(dir, 'mosquitto.log'), 'utf8');
  } catch {
    return '(no log)';
  }
}
