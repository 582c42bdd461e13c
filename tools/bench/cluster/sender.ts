/**
 * The devices of bench:cluster, in a process of their own (so that the browsers' event loop in
 * the bench process is not disturbed): single readings POSTed over keep-alive connections on an
 * open-loop schedule. Reading k is due at start + k / rate and comes from device k mod n, so each
 * device sends rate / n per second with phases spread evenly; a late timer catches up instead of
 * lowering the rate, so a server that falls behind shows as latency. Every reading's value is
 * unique for its device within the bench, and the send time of each measured reading is posted
 * to the parent (IPC), which matches it to the reading.created frames by deviceId + value.
 * Times are epoch milliseconds with sub-millisecond precision (timeOrigin + now).
 */
import http from 'node:http';
import { type BenchDevice, readingJson } from '../ingest/devices';
import { histogramAdd, histogramPercentile, newHistogram } from '../ingest/stats';

export interface SenderInit {
  type: 'init';
  baseUrl: string;
  devices: BenchDevice[];
  /** Keep-alive connections. */
  connections: number;
}
export type ToSender = SenderInit | { type: 'run'; warmupS: number; durationS: number; rate: number } | { type: 'close' };
/** Measured readings just sent: key `deviceId|value`, epoch-ms send time. One message per event-loop turn. */
export interface SentNote {
  type: 'sent';
  keys: string[];
  times: number[];
}
export interface SenderDone {
  type: 'done';
  /** Measured readings (after the warm-up) sent, answered 202, answered otherwise or failed. */
  sent: number;
  ok: number;
  failed: number;
  /** Statuses other than 202 (0: connection error), count by status. */
  statuses: Record<string, number>;
  /** Measured window: first measured send to the last one due / to the last measured answer, s. */
  sendSeconds: number;
  answerSeconds: number;
  /** POST sent → answer, ms. */
  postP50: number;
  postP99: number;
  postMax: number;
  /** How late the schedule ran at worst (a send's time minus its due time), ms. */
  maxLagMs: number;
}
/** `measuring`: the warm-up is over, the next reading sent is the first measured one. */
export type FromSender = { type: 'ready' } | { type: 'measuring' } | SentNote | SenderDone;

const now = () => performance.timeOrigin + performance.now();
const send = (m: FromSender) => process.send!(m);

let init: SenderInit | null = null;
let agent: http.Agent | null = null;

function post(url: string, d: BenchDevice, body: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request(
      url,
      { method: 'POST', agent: agent!, headers: { 'content-type': 'application/json', 'x-api-key': d.key, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

let note: SentNote = { type: 'sent', keys: [], times: [] };
let flushScheduled = false;
function flushNote(): void {
  flushScheduled = false;
  if (note.keys.length > 0) send(note);
  note = { type: 'sent', keys: [], times: [] };
}

async function run(warmupS: number, durationS: number, rate: number): Promise<SenderDone> {
  const { devices, baseUrl } = init!;
  const url = `${baseUrl}/api/v1/telemetry`;
  const postLatencies = newHistogram();
  const pending = new Set<Promise<unknown>>();
  const warmupCount = Math.floor(warmupS * rate);
  const total = warmupCount + Math.floor(durationS * rate);
  const statuses: Record<string, number> = {};
  let k = 0;
  let sent = 0;
  let ok = 0;
  let failed = 0;
  let postMax = 0;
  let maxLagMs = 0;
  let measuredStart = 0;
  let lastAnswer = 0;
  const start = performance.now();
  const due = (i: number) => start + (i * 1000) / rate;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const t = performance.now();
      while (k < total && due(k) <= t) {
        const measured = k >= warmupCount;
        if (k === warmupCount) {
          measuredStart = performance.now();
          send({ type: 'measuring' });
        }
        const lag = t - due(k);
        if (measured && lag > maxLagMs) maxLagMs = lag;
        const d = devices[k % devices.length]!;
        // Unique per device for 100,000 readings (about 2.8 h at 10/s): frames are matched by deviceId + value.
        const value = 1 + (d.seq % 100_000) / 100_000;
        const body = readingJson(d, value, Date.now());
        const sentAt = now();
        k++;
        const p = post(url, d, body).then((status) => {
          if (!measured) return;
          const ms = now() - sentAt;
          histogramAdd(postLatencies, ms);
          if (ms > postMax) postMax = ms;
          lastAnswer = performance.now();
          if (status === 202) ok++;
          else {
            failed++;
            statuses[status] = (statuses[status] ?? 0) + 1;
          }
        });
        if (measured) {
          sent++;
          note.keys.push(`${d.id}|${value}`);
          note.times.push(sentAt);
        }
        pending.add(p);
        void p.finally(() => pending.delete(p));
      }
      if (!flushScheduled && note.keys.length > 0) {
        flushScheduled = true;
        setImmediate(flushNote);
      }
      if (k < total) setTimeout(tick, Math.max(0, due(k) - performance.now()));
      else resolve();
    };
    tick();
  });
  const sendSeconds = (performance.now() - measuredStart) / 1000;
  await Promise.all(pending);
  flushNote();
  return {
    type: 'done',
    sent,
    ok,
    failed,
    statuses,
    sendSeconds,
    answerSeconds: (lastAnswer - measuredStart) / 1000,
    postP50: histogramPercentile(postLatencies, 50),
    postP99: histogramPercentile(postLatencies, 99),
    postMax,
    maxLagMs,
  };
}

process.on('message', (msg: ToSender) => {
  if (msg.type === 'init') {
    init = msg;
    agent = new http.Agent({ keepAlive: true, maxSockets: msg.connections });
    send({ type: 'ready' });
  } else if (msg.type === 'run') {
    void run(msg.warmupS, msg.durationS, msg.rate).then(send);
  } else {
    agent?.destroy();
    process.disconnect();
  }
});
// The bench went away (killed, crashed): nothing is left to send to.
process.on('disconnect', () => process.exit(0));
