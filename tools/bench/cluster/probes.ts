/**
 * The browsers of bench:cluster: live sockets (`/api/v1/live`, operator session, Origin of the
 * instance) in the bench process, each parsing every frame. A `reading.created` frame is matched
 * by deviceId + value to the send time the sender process noted for that reading; its latency is
 * the frame's arrival here minus the POST's send time there (both epoch ms, timeOrigin + now).
 */
import WebSocket from 'ws';
import { histogramAdd, histogramMerge, histogramPercentile, newHistogram } from '../ingest/stats';
import type { SentNote } from './sender';

const now = () => performance.timeOrigin + performance.now();

interface Probe {
  ws: WebSocket;
  /** Which path this socket measures (e.g. "A→C"). */
  path: string;
  latencies: Uint32Array;
  max: number;
  delivered: number;
  /** Frames before their send time was noted (the note travels after the POST). */
  early: Array<[string, number]>;
  /** Frames given up on: no send time within EARLY_LIMIT_MS. */
  unmatched: number;
  frames: number;
  closedByServer: boolean;
}

/** A frame whose send time has not been noted by then never will be (a warm-up reading's). */
const EARLY_LIMIT_MS = 5_000;

export interface PathResult {
  path: string;
  sockets: number;
  /** (reading, socket) pairs that arrived as their own frame. */
  delivered: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** reading.created frames received while measuring (matched or not). */
  frames: number;
  /** Frames left without a send time (warm-up readings' late frames, or lost notes). */
  unmatched: number;
  closedByServer: number;
}

export class LiveProbes {
  private readonly probes: Probe[] = [];
  /** Send times of the measured readings of the current run; null between runs. */
  private sentAt: Map<string, number> | null = null;

  /** Opens a live socket on `url` for `path`; resolves after its hello frame. */
  async open(url: string, cookie: string, path: string): Promise<void> {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/api/v1/live`, { headers: { cookie, origin: url }, perMessageDeflate: false });
    const probe: Probe = { ws, path, latencies: newHistogram(), max: 0, delivered: 0, early: [], unmatched: 0, frames: 0, closedByServer: false };
    await new Promise<void>((resolve, reject) => {
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`live socket on ${url} refused: ${res.statusCode}`)));
      ws.once('message', (data) => {
        const frame = JSON.parse(data.toString()) as { type: string };
        if (frame.type !== 'hello') return reject(new Error(`first frame on ${url} was ${frame.type}, not hello`));
        ws.on('message', (d) => this.onFrame(probe, d as Buffer));
        ws.on('close', () => (probe.closedByServer = this.sentAt !== null));
        resolve();
      });
    });
    this.probes.push(probe);
  }

  private onFrame(probe: Probe, data: Buffer): void {
    const t = now();
    if (!this.sentAt) return;
    const frame = JSON.parse(data.toString()) as { type: string; data: { deviceId: string; reading: { value: number } } };
    if (frame.type !== 'reading.created') return;
    probe.frames++;
    const key = `${frame.data.deviceId}|${frame.data.reading.value}`;
    const s = this.sentAt.get(key);
    if (s === undefined) probe.early.push([key, t]);
    else this.match(probe, t, s);
  }

  private match(probe: Probe, receivedAt: number, sentAt: number): void {
    const ms = receivedAt - sentAt;
    probe.delivered++;
    histogramAdd(probe.latencies, ms);
    if (ms > probe.max) probe.max = ms;
  }

  /** The sender's note of measured readings just sent. */
  noteSent(note: SentNote): void {
    if (!this.sentAt) return;
    for (let i = 0; i < note.keys.length; i++) this.sentAt.set(note.keys[i]!, note.times[i]!);
    const giveUp = now() - EARLY_LIMIT_MS;
    for (const probe of this.probes) {
      if (probe.early.length === 0) continue;
      const still: Array<[string, number]> = [];
      for (const [key, t] of probe.early) {
        const s = this.sentAt.get(key);
        if (s !== undefined) this.match(probe, t, s);
        else if (t < giveUp) probe.unmatched++;
        else still.push([key, t]);
      }
      probe.early = still;
    }
  }

  /** Starts matching (the warm-up's frames are dropped until then). */
  begin(): void {
    this.sentAt = new Map();
    for (const p of this.probes) {
      p.latencies = newHistogram();
      p.max = 0;
      p.delivered = 0;
      p.early = [];
      p.unmatched = 0;
      p.frames = 0;
      p.closedByServer = false;
    }
  }

  /** Stops matching; results per path, in the order the paths were opened. */
  end(): PathResult[] {
    this.sentAt = null;
    const paths = [...new Set(this.probes.map((p) => p.path))];
    return paths.map((path) => {
      const mine = this.probes.filter((p) => p.path === path);
      const h = newHistogram();
      for (const p of mine) histogramMerge(h, p.latencies);
      return {
        path,
        sockets: mine.length,
        delivered: mine.reduce((a, p) => a + p.delivered, 0),
        p50: histogramPercentile(h, 50),
        p95: histogramPercentile(h, 95),
        p99: histogramPercentile(h, 99),
        max: Math.max(...mine.map((p) => p.max)),
        frames: mine.reduce((a, p) => a + p.frames, 0),
        unmatched: mine.reduce((a, p) => a + p.unmatched + p.early.length, 0),
        closedByServer: mine.filter((p) => p.closedByServer).length,
      };
    });
  }

  close(): void {
    for (const p of this.probes) p.ws.terminate();
  }
}
