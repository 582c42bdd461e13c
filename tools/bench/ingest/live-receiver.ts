/**
 * Worker thread of the live-latency bench: holds the browsers' WebSockets and matches each
 * reading.created frame to the send time the main thread posted for (deviceId, value). Receiving
 * 100 sockets × 1,000 frames/s here keeps the main thread's send pacing exact.
 * Times are epoch milliseconds with sub-millisecond precision (timeOrigin + now), which both
 * threads share.
 */
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

interface Init {
  wsUrl: string;
  cookie: string;
  sockets: number;
}
export type ToReceiver = { type: 'run' } | { type: 'sent'; keys: string[]; times: number[] } | { type: 'end' } | { type: 'close' };
export type FromReceiver =
  | { type: 'ready' }
  | { type: 'error'; message: string }
  | { type: 'result'; latencies: Float64Array; delivered: number; otherFrames: number; unmatched: number }
  | { type: 'closed' };

const init = workerData as Init;
const port = parentPort!;
const now = () => performance.timeOrigin + performance.now();

let sentAt: Map<string, number> | null = null;
let latencies: number[] = [];
let delivered = 0;
let otherFrames = 0;
let unmatched = 0;
/** Frames that came before the main thread's note of their send time (it is posted after send). */
let early: Array<[string, number]> = [];

function onFrame(data: Buffer): void {
  const t = now();
  const frame = JSON.parse(data.toString()) as { type: string; data: { deviceId: string; reading: { value: number } } };
  if (frame.type !== 'reading.created') {
    otherFrames++;
    return;
  }
  if (!sentAt) return;
  const key = `${frame.data.deviceId}|${frame.data.reading.value}`;
  const s = sentAt.get(key);
  if (s === undefined) {
    early.push([key, t]);
    return;
  }
  delivered++;
  latencies.push(t - s);
}

async function open(): Promise<WebSocket[]> {
  const one = () =>
    new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(init.wsUrl, { headers: { cookie: init.cookie }, perMessageDeflate: false });
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`live socket refused: ${res.statusCode}`)));
      ws.once('message', (data) => {
        const frame = JSON.parse(data.toString()) as { type: string };
        if (frame.type !== 'hello') return reject(new Error(`first frame was ${frame.type}, not hello`));
        ws.on('message', (d) => onFrame(d as Buffer));
        resolve(ws);
      });
    });
  const out: WebSocket[] = [];
  for (let i = 0; i < init.sockets; i += 20) out.push(...(await Promise.all(Array.from({ length: Math.min(20, init.sockets - i) }, one))));
  return out;
}

let sockets: WebSocket[] = [];
open().then(
  (s) => {
    sockets = s;
    port.postMessage({ type: 'ready' } satisfies FromReceiver);
  },
  (err: Error) => port.postMessage({ type: 'error', message: err.message } satisfies FromReceiver),
);

port.on('message', (msg: ToReceiver) => {
  if (msg.type === 'run') {
    sentAt = new Map();
    latencies = [];
    delivered = 0;
    unmatched = 0;
    early = [];
  } else if (msg.type === 'sent' && sentAt) {
    for (let i = 0; i < msg.keys.length; i++) sentAt.set(msg.keys[i]!, msg.times[i]!);
    if (early.length > 0) {
      const still: Array<[string, number]> = [];
      for (const [key, t] of early) {
        const s = sentAt.get(key);
        if (s === undefined) still.push([key, t]);
        else {
          delivered++;
          latencies.push(t - s);
        }
      }
      early = still;
    }
  } else if (msg.type === 'end') {
    unmatched = early.length;
    const result = Float64Array.from(latencies);
    port.postMessage({ type: 'result', latencies: result, delivered, otherFrames, unmatched } satisfies FromReceiver, [result.buffer]);
    sentAt = null;
  } else if (msg.type === 'close') {
    let open = sockets.length;
    const done = () => {
      if (--open <= 0) port.postMessage({ type: 'closed' } satisfies FromReceiver);
    };
    if (open === 0) port.postMessage({ type: 'closed' } satisfies FromReceiver);
    for (const ws of sockets) {
      ws.once('close', done);
      ws.close(1000);
    }
    setTimeout(() => {
      for (const ws of sockets) ws.terminate();
    }, 2000).unref();
  }
});
