import http from 'node:http';
import { Worker } from 'node:worker_threads';
import type { BenchDevice } from './devices';
import { readingJson } from './devices';
import type { FromReceiver, ToReceiver } from './live-receiver';

export interface LiveLatencyResult {
  durationS: number;
  /** Readings POSTed / answered 202 / failed. */
  sent: number;
  ok: number;
  failed: number;
  /** Achieved send rate, readings/s. */
  sendRate: number;
  /** (reading, socket) pairs that arrived as a reading.created frame / that were expected. */
  delivered: number;
  expected: number;
  /** POST send → frame receipt, ms, over every (reading, socket) pair delivered. */
  p50: number;
  p99: number;
  max: number;
  /** POST send → 202, ms. */
  postP99: number;
}

const now = () => performance.timeOrigin + performance.now();

/**
 * Browsers on the live socket (ws clients with a session cookie, in a worker thread) and devices
 * POSTing single readings at a fixed total rate (main thread); measures the time from sending the
 * POST to each socket receiving the matching reading.created frame (matched by deviceId + value).
 */
export class LiveLatencyBench {
  private worker: Worker | null = null;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

  constructor(
    private readonly baseUrl: string,
    private readonly devices: BenchDevice[],
  ) {}

  private next(): Promise<FromReceiver> {
    return new Promise((resolve, reject) => {
      const w = this.worker!;
      const onMessage = (m: FromReceiver) => {
        w.off('error', onError);
        resolve(m);
      };
      const onError = (e: Error) => {
        w.off('message', onMessage);
        reject(e);
      };
      w.once('message', onMessage);
      w.once('error', onError);
    });
  }

  private post(msg: ToReceiver): void {
    this.worker!.postMessage(msg);
  }

  /** Opens `count` live sockets with the cookie (in the worker) and waits for each one's hello. */
  async openSockets(count: number, cookie: string): Promise<void> {
    const wsUrl = this.baseUrl.replace(/^http/, 'ws') + '/api/v1/live';
    // The worker registers tsx's loader itself (a worker does not inherit the main thread's hooks).
    this.worker = new Worker(new URL('./live-receiver.boot.mjs', import.meta.url), { workerData: { wsUrl, cookie, sockets: count } });
    const m = await this.next();
    if (m.type !== 'ready') throw new Error(`live sockets: ${m.type === 'error' ? m.message : m.type}`);
  }

  private send(d: BenchDevice, body: string): Promise<number> {
    return new Promise((resolve) => {
      const req = http.request(
        `${this.baseUrl}/api/v1/telemetry`,
        { method: 'POST', agent: this.agent, headers: { 'content-type': 'application/json', 'x-api-key': d.key, 'content-length': Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', () => resolve(0));
      req.end(body);
    });
  }

  /**
   * Every device sends `perDeviceHz` readings per second (phases spread so the total is even)
   * for `durationS`; then waits for the answers and `graceMs` for the last frames.
   */
  async run(durationS: number, perDeviceHz: number, sockets: number, graceMs = 500): Promise<LiveLatencyResult> {
    this.post({ type: 'run' });
    let sent = 0;
    let ok = 0;
    let failed = 0;
    const postLatencies: number[] = [];
    const pending = new Set<Promise<unknown>>();
    const periodMs = 1000 / perDeviceHz;
    const start = performance.now();
    const stopAt = start + durationS * 1000;

    // One timer per device. Each tick sends what is due, so a late timer catches up instead of
    // lowering the rate (the catch-up shows as a burst, which the coalescing may then merge).
    const timers = this.devices.map((d, i) => {
      let due = start + (i * periodMs) / this.devices.length;
      let timer: NodeJS.Timeout;
      const tick = () => {
        const keys: string[] = [];
        const times: number[] = [];
        while (due <= performance.now() && due < stopAt) {
          due += periodMs;
          // A value unique per device within the run: the frame is matched by deviceId + value.
          const value = 1 + (d.seq % 3000) / 1000;
          const body = readingJson(d, value, Date.now());
          const t = now();
          keys.push(`${d.id}|${value}`);
          times.push(t);
          sent++;
          const p = this.send(d, body).then((status) => {
            postLatencies.push(now() - t);
            if (status === 202) ok++;
            else failed++;
          });
          pending.add(p);
          void p.finally(() => pending.delete(p));
        }
        if (keys.length > 0) this.post({ type: 'sent', keys, times });
        if (due < stopAt) timer = setTimeout(tick, Math.max(0, due - performance.now()));
      };
      timer = setTimeout(tick, Math.max(0, due - performance.now()));
      return () => clearTimeout(timer);
    });
    await new Promise((r) => setTimeout(r, durationS * 1000));
    timers.forEach((stop) => stop());
    const sendSeconds = (performance.now() - start) / 1000;
    await Promise.all(pending);
    await new Promise((r) => setTimeout(r, graceMs));
    const result = this.next();
    this.post({ type: 'end' });
    const m = await result;
    if (m.type !== 'result') throw new Error(`live receiver answered ${m.type}`);

    const sorted = m.latencies.sort();
    const pct = (a: ArrayLike<number>, p: number) => (a.length ? a[Math.min(a.length - 1, Math.ceil((p / 100) * a.length) - 1)]! : NaN);
    const post = Float64Array.from(postLatencies).sort();
    return {
      durationS: sendSeconds,
      sent,
      ok,
      failed,
      sendRate: sent / sendSeconds,
      delivered: m.delivered,
      expected: ok * sockets,
      p50: pct(sorted, 50),
      p99: pct(sorted, 99),
      max: sorted.length ? sorted[sorted.length - 1]! : NaN,
      postP99: pct(post, 99),
    };
  }

  async close(): Promise<void> {
    if (this.worker) {
      const closed = this.next();
      this.post({ type: 'close' });
      await closed;
      await this.worker.terminate();
      this.worker = null;
    }
    this.agent.destroy();
  }
}
