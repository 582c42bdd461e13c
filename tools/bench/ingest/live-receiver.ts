/**
 * Worker thread of the live-latency bench: holds some of the browsers' live sockets. A few are
 * probes (ws clients) that match each reading.created frame to the send time the senders posted
 * for (deviceId, value); the others are sinks that read every byte and drop it. The server does
 * the same work for both, and the load generator, which shares the machine, does not parse
 * millions of frames a second that real browsers would parse on their own machines.
 * Times are epoch milliseconds with sub-millisecond precision (timeOrigin + now), which all
 * threads of the process share.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { Socket } from 'node:net';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import WebSocket from 'ws';
import { histogramAdd, newHistogram } from './stats';

export interface ReceiverInit {
  wsUrl: string;
  /** Session cookies; each one opens at most `socketsPerCookie` sockets (the server's cap). */
  cookies: string[];
  /** The source address of each session's sockets (a browser's address). */
  addresses: string[];
  socketsPerCookie: number;
  sockets: number;
  /** How many of `sockets` are probes, spread evenly through the opening order. */
  probes: number;
  /** One port from each sender: its `SentNote`s. */
  senders: MessagePort[];
}
/** Readings a sender has just POSTed: key `deviceId|value`, epoch-ms send time. */
export interface SentNote {
  keys: string[];
  times: number[];
}
export type ToReceiver = { type: 'run' } | { type: 'end' } | { type: 'close' };
export type FromReceiver =
  | { type: 'ready' }
  | { type: 'error'; message: string }
  | {
      type: 'result';
      /** POST sent → frame received, ms (stats.ts histogram). */
      latencies: Uint32Array;
      max: number;
      delivered: number;
      /** Probes / sockets open when the run started; sockets closed by the server during it (too slow: 1013). */
      probesAtStart: number;
      openAtStart: number;
      closedByServer: number;
      unmatched: number;
    }
  | { type: 'closed' };

const init = workerData as ReceiverInit;
const port = parentPort!;
const now = () => performance.timeOrigin + performance.now();

let sentAt: Map<string, number> | null = null;
let latencies = newHistogram();
let max = 0;
let delivered = 0;
let closedByServer = 0;
let closing = false;
/** Frames that came before their sender's note of the send time (it is posted after the send). */
let early: Array<[string, number]> = [];

function match(receivedAt: number, sent: number): void {
  const ms = receivedAt - sent;
  delivered++;
  histogramAdd(latencies, ms);
  if (ms > max) max = ms;
}

function onFrame(data: Buffer): void {
  const t = now();
  if (!sentAt) return;
  const frame = JSON.parse(data.toString()) as { type: string; data: { deviceId: string; reading: { value: number } } };
  if (frame.type !== 'reading.created') return;
  const key = `${frame.data.deviceId}|${frame.data.reading.value}`;
  const s = sentAt.get(key);
  if (s === undefined) early.push([key, t]);
  else match(t, s);
}

function onSent(note: SentNote): void {
  if (!sentAt) return;
  for (let i = 0; i < note.keys.length; i++) sentAt.set(note.keys[i]!, note.times[i]!);
  if (early.length === 0) return;
  const still: Array<[string, number]> = [];
  for (const [key, t] of early) {
    const s = sentAt.get(key);
    if (s === undefined) still.push([key, t]);
    else match(t, s);
  }
  early = still;
}

function onServerClose(): void {
  if (!closing) closedByServer++;
}

function openProbe(cookie: string, localAddress: string): Promise<WebSocket> {
  return new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(init.wsUrl, { headers: { cookie }, perMessageDeflate: false, localAddress });
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`live socket refused: ${res.statusCode}`)));
    ws.once('message', (data) => {
      const frame = JSON.parse(data.toString()) as { type: string };
      if (frame.type !== 'hello') return reject(new Error(`first frame was ${frame.type}, not hello`));
      ws.on('message', (d) => onFrame(d as Buffer));
      ws.on('close', onServerClose);
      resolve(ws);
    });
  });
}

/** The WebSocket upgrade by hand, then the raw TCP socket, read and dropped. */
function openSink(cookie: string, localAddress: string): Promise<Socket> {
  return new Promise<Socket>((resolve, reject) => {
    const req = http.request(init.wsUrl.replace(/^ws/, 'http'), {
      agent: false,
      localAddress,
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': randomBytes(16).toString('base64'), cookie },
    });
    req.once('upgrade', (_res, socket: Socket) => {
      socket.resume();
      socket.on('error', () => undefined);
      socket.on('close', onServerClose);
      resolve(socket);
    });
    req.once('response', (res) => reject(new Error(`live socket refused: ${res.statusCode}`)));
    req.once('error', reject);
    req.end();
  });
}

type LiveSocket = { probe: WebSocket } | { sink: Socket };
const isOpen = (s: LiveSocket) => ('probe' in s ? s.probe.readyState === WebSocket.OPEN : !s.sink.destroyed);

async function openAll(): Promise<LiveSocket[]> {
  const out: LiveSocket[] = [];
  const one = async (k: number): Promise<LiveSocket> => {
    const session = Math.floor(k / init.socketsPerCookie);
    const cookie = init.cookies[session]!;
    const address = init.addresses[session]!;
    // Exactly `probes` of the sockets, evenly spread: the server writes to its sockets in order.
    const probe = Math.floor(((k + 1) * init.probes) / init.sockets) > Math.floor((k * init.probes) / init.sockets);
    return probe ? { probe: await openProbe(cookie, address) } : { sink: await openSink(cookie, address) };
  };
  for (let i = 0; i < init.sockets; i += 20) {
    const chunk = Array.from({ length: Math.min(20, init.sockets - i) }, (_, k) => one(i + k));
    out.push(...(await Promise.all(chunk)));
  }
  return out;
}

for (const p of init.senders) p.on('message', onSent);

let sockets: LiveSocket[] = [];
let openAtStart = 0;
let probesAtStart = 0;
openAll().then(
  (s) => {
    sockets = s;
    port.postMessage({ type: 'ready' } satisfies FromReceiver);
  },
  (err: Error) => port.postMessage({ type: 'error', message: err.message } satisfies FromReceiver),
);

port.on('message', (msg: ToReceiver) => {
  if (msg.type === 'run') {
    sentAt = new Map();
    latencies = newHistogram();
    max = 0;
    delivered = 0;
    closedByServer = 0;
    early = [];
    const open = sockets.filter(isOpen);
    openAtStart = open.length;
    probesAtStart = open.filter((s) => 'probe' in s).length;
  } else if (msg.type === 'end') {
    const result: FromReceiver = { type: 'result', latencies, max, delivered, probesAtStart, openAtStart, closedByServer, unmatched: early.length };
    port.postMessage(result, [latencies.buffer as ArrayBuffer]);
    sentAt = null;
  } else if (msg.type === 'close') {
    closing = true;
    for (const p of init.senders) p.close();
    const probes = sockets.flatMap((s) => ('probe' in s && isOpen(s) ? [s.probe] : []));
    for (const s of sockets) if ('sink' in s) s.sink.destroy();
    let left = probes.length;
    const done = () => {
      if (--left <= 0) port.postMessage({ type: 'closed' } satisfies FromReceiver);
    };
    if (left === 0) port.postMessage({ type: 'closed' } satisfies FromReceiver);
    for (const ws of probes) {
      ws.once('close', done);
      ws.close(1000);
    }
    setTimeout(() => {
      for (const ws of probes) ws.terminate();
    }, 2000).unref();
  }
});
