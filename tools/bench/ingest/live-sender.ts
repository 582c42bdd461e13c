/**
 * Worker thread of the live-latency bench: some of the devices POSTing single readings at a
 * fixed rate. The schedule is open loop (a reading is sent when it is due, whether or not the
 * earlier ones were answered), so a server that falls behind shows as latency, not as a lower
 * offered rate. Each send time goes to every receiver, which match the frames to it.
 */
import http from 'node:http';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { type BenchDevice, readingJson } from './devices';
import type { SentNote } from './live-receiver';
import { histogramAdd, newHistogram } from './stats';

export interface SenderInit {
  baseUrl: string;
  devices: BenchDevice[];
  /** Keep-alive connections this sender may open. */
  maxSockets: number;
  /** One port to each receiver. */
  receivers: MessagePort[];
}
export type ToSender = { type: 'run'; durationS: number; rate: number } | { type: 'close' };
export type FromSender =
  | {
      type: 'done';
      sent: number;
      ok: number;
      failed: number;
      /** From the first send to the last one due / to the last answer. */
      sendSeconds: number;
      answerSeconds: number;
      /** POST sent → answer, ms (stats.ts histogram). */
      post: Uint32Array;
    }
  | { type: 'closed' };

const init = workerData as SenderInit;
const port = parentPort!;
const agent = new http.Agent({ keepAlive: true, maxSockets: init.maxSockets });
const url = `${init.baseUrl}/api/v1/telemetry`;
const now = () => performance.timeOrigin + performance.now();

function post(d: BenchDevice, body: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'x-api-key': d.key, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

/** Send times not yet posted to the receivers: one message per event-loop turn, not per reading. */
let note: SentNote = { keys: [], times: [] };
let flushScheduled = false;
function flushNote(): void {
  flushScheduled = false;
  for (const r of init.receivers) r.postMessage(note);
  note = { keys: [], times: [] };
}

/**
 * Reading k is due at start + k / rate and comes from device k mod n: each device sends
 * rate / n per second, phases spread evenly. A late timer catches up instead of lowering the rate.
 */
async function run(durationS: number, rate: number): Promise<Extract<FromSender, { type: 'done' }>> {
  const devices = init.devices;
  const postLatencies = newHistogram();
  const pending = new Set<Promise<unknown>>();
  let sent = 0;
  let ok = 0;
  let failed = 0;
  let lastAnswer = 0;
  const start = performance.now();
  const total = Math.floor(durationS * rate);
  await new Promise<void>((resolve) => {
    const tick = () => {
      const t = performance.now();
      while (sent < total && start + (sent * 1000) / rate <= t) {
        const d = devices[sent % devices.length]!;
        // A value unique per device within a run (100,000 readings): frames are matched by deviceId + value.
        const value = 1 + (d.seq % 100_000) / 100_000;
        const body = readingJson(d, value, Date.now());
        const sentAt = now();
        note.keys.push(`${d.id}|${value}`);
        note.times.push(sentAt);
        sent++;
        const p = post(d, body).then((status) => {
          const answeredAt = now();
          histogramAdd(postLatencies, answeredAt - sentAt);
          lastAnswer = performance.now();
          if (status === 202) ok++;
          else failed++;
        });
        pending.add(p);
        void p.finally(() => pending.delete(p));
      }
      if (!flushScheduled && note.keys.length > 0) {
        flushScheduled = true;
        setImmediate(flushNote);
      }
      if (sent < total) setTimeout(tick, Math.max(0, start + (sent * 1000) / rate - performance.now()));
      else resolve();
    };
    tick();
  });
  const sendSeconds = (performance.now() - start) / 1000;
  await Promise.all(pending);
  return { type: 'done', sent, ok, failed, sendSeconds, answerSeconds: (lastAnswer - start) / 1000, post: postLatencies };
}

port.on('message', (msg: ToSender) => {
  if (msg.type === 'run') {
    void run(msg.durationS, msg.rate).then((result) => port.postMessage(result, [result.post.buffer as ArrayBuffer]));
  } else {
    agent.destroy();
    for (const r of init.receivers) r.close();
    port.postMessage({ type: 'closed' } satisfies FromSender);
  }
});
