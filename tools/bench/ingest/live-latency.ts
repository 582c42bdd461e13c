import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import type { BenchDevice } from './devices';
import type { FromReceiver, ReceiverInit, ToReceiver } from './live-receiver';
import type { FromSender, SenderInit, ToSender } from './live-sender';
import { histogramMerge, histogramPercentile, newHistogram, sleep } from './stats';
import { ask, nextMessage, startWorker } from './worker-thread';

export interface LiveLatencyResult {
  /** Readings POSTed / answered 202 / failed. */
  sent: number;
  ok: number;
  failed: number;
  /** Offered rate (readings sent while the run lasted) and answered rate (202s until the last answer), per second. */
  sendRate: number;
  answerRate: number;
  /** (reading, probe socket) pairs that arrived as a reading.created frame / that were expected. */
  delivered: number;
  expected: number;
  /** Sockets (and probes among them) open at the start of the run, and closed by the server during it (too slow). */
  sockets: number;
  probes: number;
  socketsClosed: number;
  /** POST send → frame receipt, ms, over every (reading, probe socket) pair delivered. */
  p50: number;
  p99: number;
  max: number;
  /** POST send → 202, ms. */
  postP99: number;
}

export interface LiveLatencyOptions {
  baseUrl: string;
  devices: BenchDevice[];
  /** A new viewer session's cookie (the server caps the live sockets of one session). */
  newSession: () => Promise<string>;
  socketsPerSession: number;
  sockets: number;
  /** Sockets that parse and time the frames; the others read and drop them (live-receiver.ts). */
  probes: number;
  /** Worker threads holding the sockets / POSTing the readings (devices split between senders). */
  receivers: number;
  senders: number;
  /** Keep-alive POST connections, all senders together, at most 64 from one address. */
  postConnections: number;
  /** Devices publish over MQTT to this broker instead of POSTing. */
  mqttUrl?: string;
}

/**
 * The `i`-th loopback address the load comes from (127.0.0.2 on; the whole 127/8 reaches this
 * machine): browsers and devices come from many addresses, each under the server's per-address
 * connection cap, as in the field.
 */
export function loopbackAddress(i: number): string {
  return `127.${Math.floor(i / 62_500) % 256}.${Math.floor(i / 250) % 250}.${2 + (i % 250)}`;
}

/** Device connections per source address: under the server's default cap (MAX_CONNECTIONS_PER_ADDRESS=128). */
const POSTS_PER_ADDRESS = 64;

/** `total` split into `parts` near-equal shares. */
function split(total: number, parts: number): number[] {
  return Array.from({ length: parts }, (_, i) => Math.floor(total / parts) + (i < total % parts ? 1 : 0));
}

/**
 * Browsers on the live socket (viewer sessions, in receiver worker threads: a few ws probes that
 * time the frames, the rest sinks that drop them) and devices POSTing single readings at a fixed total rate (in sender worker threads); measures
 * the time from sending the POST to each socket receiving the matching reading.created frame
 * (matched by deviceId + value).
 */
export class LiveLatencyBench {
  private constructor(
    private readonly receivers: Worker[],
    private readonly senders: Worker[],
  ) {}

  static async open(opts: LiveLatencyOptions): Promise<LiveLatencyBench> {
    const wsUrl = opts.baseUrl.replace(/^http/, 'ws') + '/api/v1/live';
    // Every sender talks to every receiver directly: send times need not pass through this thread.
    const channels = Array.from({ length: opts.senders }, () => Array.from({ length: opts.receivers }, () => new MessageChannel()));
    const receivers: Worker[] = [];
    const probes = split(Math.min(opts.probes, opts.sockets), opts.receivers);
    // Each session (a browser) from an address of its own; the devices after them.
    let nextAddress = 0;
    for (const [r, sockets] of split(opts.sockets, opts.receivers).entries()) {
      const cookies: string[] = [];
      const addresses: string[] = [];
      for (let i = 0; i < Math.ceil(sockets / opts.socketsPerSession); i++) {
        cookies.push(await opts.newSession());
        addresses.push(loopbackAddress(nextAddress++));
      }
      const ports: MessagePort[] = channels.map((row) => row[r]!.port2);
      const init: ReceiverInit = { wsUrl, cookies, addresses, socketsPerCookie: opts.socketsPerSession, sockets, probes: probes[r]!, senders: ports };
      receivers.push(startWorker('./live-receiver.ts', init, ports));
    }
    const deviceShares = split(opts.devices.length, opts.senders);
    const senders = deviceShares.map((n, s) => {
      const first = deviceShares.slice(0, s).reduce((a, b) => a + b, 0);
      const ports: MessagePort[] = channels[s]!.map((c) => c.port1);
      const connections = Math.max(1, Math.ceil(opts.postConnections / opts.senders));
      const addresses = Array.from({ length: Math.ceil(connections / POSTS_PER_ADDRESS) }, () => loopbackAddress(nextAddress++));
      const init: SenderInit = {
        baseUrl: opts.baseUrl,
        devices: opts.devices.slice(first, first + n),
        addresses,
        maxSockets: Math.max(1, Math.ceil(connections / addresses.length)),
        receivers: ports,
        ...(opts.mqttUrl ? { mqttUrl: opts.mqttUrl } : {}),
      };
      return startWorker('./live-sender.ts', init, ports);
    });
    const bench = new LiveLatencyBench(receivers, senders);
    for (const w of receivers) {
      const m = await nextMessage<FromReceiver>(w);
      if (m.type !== 'ready') {
        await bench.close();
        throw new Error(`live sockets: ${m.type === 'error' ? m.message : m.type}`);
      }
    }
    return bench;
  }

  /** Sends `rate` readings/s for `durationS`, waits for every answer and `graceMs` for the last frames. */
  async run(durationS: number, rate: number, graceMs = 500): Promise<LiveLatencyResult> {
    for (const w of this.receivers) w.postMessage({ type: 'run' } satisfies ToReceiver);
    const rates = split(rate, this.senders.length);
    const done = await Promise.all(
      this.senders.map(async (w, i) => {
        const m = await ask<FromSender>(w, { type: 'run', durationS, rate: rates[i]! } satisfies ToSender);
        if (m.type !== 'done') throw new Error(`live sender answered ${m.type}`);
        return m;
      }),
    );
    await sleep(graceMs);
    const results = await Promise.all(
      this.receivers.map(async (w) => {
        const m = await ask<FromReceiver>(w, { type: 'end' } satisfies ToReceiver);
        if (m.type !== 'result') throw new Error(`live receiver answered ${m.type}`);
        return m;
      }),
    );

    const latencies = newHistogram();
    for (const r of results) histogramMerge(latencies, r.latencies);
    const post = newHistogram();
    for (const d of done) histogramMerge(post, d.post);
    const sum = <T>(xs: T[], f: (x: T) => number) => xs.reduce((a, x) => a + f(x), 0);
    const ok = sum(done, (d) => d.ok);
    const probes = sum(results, (r) => r.probesAtStart);
    return {
      sent: sum(done, (d) => d.sent),
      ok,
      failed: sum(done, (d) => d.failed),
      sendRate: sum(done, (d) => d.sent / d.sendSeconds),
      answerRate: ok / Math.max(...done.map((d) => d.answerSeconds)),
      delivered: sum(results, (r) => r.delivered),
      expected: ok * probes,
      sockets: sum(results, (r) => r.openAtStart),
      probes,
      socketsClosed: sum(results, (r) => r.closedByServer),
      p50: histogramPercentile(latencies, 50),
      p99: histogramPercentile(latencies, 99),
      max: Math.max(...results.map((r) => r.max)),
      postP99: histogramPercentile(post, 99),
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.senders, ...this.receivers].map((w) => ask(w, { type: 'close' })));
    await Promise.all([...this.senders, ...this.receivers].map((w) => w.terminate()));
  }
}
