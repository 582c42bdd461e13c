/**
 * The MQTT ceiling of the ingest bench: Debian's Mosquitto relaying the MQTT figure's load to one
 * subscriber. Its own instance on a free port with a generated config in a temp folder: the
 * machine's own broker (on 1883) is never touched.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { MeasuredChild, freePort, isListening } from './server-process';
import { sleep } from './stats';
import { ask, nextMessage, startWorker } from './worker-thread';
import type { FromSubscriber, SubscriberInit, ToSubscriber } from './mqtt-subscriber';

const MOSQUITTO = '/usr/sbin/mosquitto';
const DYNSEC_PLUGIN = '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so';

export function mosquittoAvailable(): boolean {
  try {
    fs.accessSync(MOSQUITTO, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The installed package and version, for the report. */
export function mosquittoVersion(): string {
  try {
    return execFileSync('dpkg-query', ['-W', '-f', 'Debian mosquitto ${Version}', 'mosquitto'], { encoding: 'utf8' }).trim();
  } catch {
    return MOSQUITTO;
  }
}

export interface RunningMosquitto {
  child: MeasuredChild;
  port: number;
  stop(): Promise<void>;
}

/**
 * Starts Mosquitto with a minimal config: anonymous, no persistence, and in-flight / queue limits
 * far above the load's (10 clients × 100 in flight; the subscriber may fall behind for a while),
 * so that the broker never drops or throttles what the figure would have stored.
 */
export async function startMosquitto(): Promise<RunningMosquitto> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-bench-mosquitto-'));
  const conf = path.join(dir, 'mosquitto.conf');
  fs.writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      'persistence false',
      'max_inflight_messages 10000',
      'max_queued_messages 10000000',
      'log_dest stderr',
      'log_type error',
      'log_type warning',
      '',
    ].join('\n'),
  );
  const child = new MeasuredChild({ label: 'mosquitto', command: MOSQUITTO, args: ['-c', conf], env: {}, cwd: dir });
  const stop = async () => {
    await child.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await child.waitReady(() => isListening(port), 10_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { child, port, stop };
}

/** Whether Mosquitto's dynamic security plugin and mosquitto_ctrl are installed (the external-broker figure needs them). */
export function dynsecAvailable(): boolean {
  return mosquittoAvailable() && fs.existsSync(DYNSEC_PLUGIN) && fs.existsSync('/usr/bin/mosquitto_ctrl');
}

export interface RunningDynsecMosquitto extends RunningMosquitto {
  /** MQTT_URL for the server: the administrator made by `mosquitto_ctrl dynsec init`. */
  adminUrl: string;
}

/**
 * Mosquitto with the dynamic security plugin, configured as docs/external-broker.md says (minus
 * persistence, as for the relay), for the server's external-broker mode.
 */
export async function startDynsecMosquitto(): Promise<RunningDynsecMosquitto> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-bench-dynsec-'));
  const password = `bench-${process.pid}-${Date.now()}`;
  execFileSync('mosquitto_ctrl', ['dynsec', 'init', path.join(dir, 'dynamic-security.json'), 'admin', password], { stdio: 'ignore' });
  const conf = path.join(dir, 'mosquitto.conf');
  fs.writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous false',
      `plugin ${DYNSEC_PLUGIN}`,
      `plugin_opt_config_file ${path.join(dir, 'dynamic-security.json')}`,
      'persistence false',
      'max_inflight_messages 100',
      'max_queued_messages 10000000',
      'set_tcp_nodelay true',
      'user root',
      'log_dest stderr',
      'log_type error',
      'log_type warning',
      '',
    ].join('\n'),
  );
  const child = new MeasuredChild({ label: 'mosquitto-dynsec', command: MOSQUITTO, args: ['-c', conf], env: {}, cwd: dir });
  const stop = async () => {
    await child.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await child.waitReady(() => isListening(port), 10_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { child, port, stop, adminUrl: `mqtt://admin:${password}@127.0.0.1:${port}` };
}

/**
 * One plain mqtt.js client subscribed at QoS 1 to the load's topics, consuming everything, in a
 * worker thread so that it does not take turns with the publishers on this event loop.
 */
export class RelaySubscriber {
  private constructor(private readonly worker: Worker) {}

  static async start(port: number, topic: string): Promise<RelaySubscriber> {
    const worker = startWorker('./mqtt-subscriber.ts', { port, topic } satisfies SubscriberInit);
    const m = await nextMessage<FromSubscriber>(worker);
    if (m.type !== 'ready') throw new Error(`relay subscriber: ${m.type === 'error' ? m.message : m.type}`);
    return new RelaySubscriber(worker);
  }

  /** Messages received so far. */
  async received(): Promise<number> {
    const m = await ask<FromSubscriber>(this.worker, { type: 'count' } satisfies ToSubscriber);
    if (m.type !== 'count') throw new Error(`relay subscriber: ${m.type === 'error' ? m.message : m.type}`);
    return m.received;
  }

  /** Waits (up to `timeoutMs`) until the subscriber has received `count` messages; returns what it has. */
  async drain(count: number, timeoutMs = 30_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    let n = await this.received();
    while (n < count && Date.now() < deadline) {
      await sleep(50);
      n = await this.received();
    }
    return n;
  }

  async close(): Promise<void> {
    await ask(this.worker, { type: 'close' } satisfies ToSubscriber);
    await this.worker.terminate();
  }
}
