import type { Worker } from 'node:worker_threads';
import { AppError, unprocessable } from '../../lib/errors';
import { startWorker } from '../../lib/worker-thread';
import type { SanitizedSvg } from './sanitize-svg';
import type { SanitizeResponse } from './sanitize-svg.protocol';

/** A drawing that takes longer than this to clean is refused (503), and the thread restarted. */
const DEADLINE_MS = 30_000;
/** An idle thread is ended after this long: a drawing is saved now and then, not all day. */
const IDLE_MS = 60_000;

type Pending = { resolve: (r: SanitizedSvg) => void; reject: (err: Error) => void; timer: NodeJS.Timeout };

/**
 * Cleans SVG backgrounds on a thread of its own (sanitize-svg.worker.ts), started at the first
 * drawing and ended when idle, so that neither a 2 MB drawing's seconds of work nor jsdom's start
 * ever hold the event loop (docs/sites.md "SVG backgrounds"). Drawings are cleaned one after
 * another, in the order they came.
 */
export class SvgSanitizer {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private idle: NodeJS.Timeout | null = null;

  sanitize(svg: string): Promise<SanitizedSvg> {
    const worker = this.worker ?? this.start();
    if (this.idle) clearTimeout(this.idle);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.restart(new AppError(503, 'SERVICE_UNAVAILABLE')), DEADLINE_MS);
      this.pending.set(id, { resolve, reject, timer });
      worker.postMessage({ id, svg });
    });
  }

  async close(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    await this.restart(new AppError(503, 'SERVICE_UNAVAILABLE'));
  }

  private start(): Worker {
    const worker = startWorker(import.meta.url, 'sanitize-svg.worker', {});
    worker.unref();
    worker.on('message', (res: SanitizeResponse) => this.answered(res));
    worker.on('exit', () => {
      if (this.worker === worker) void this.restart(new AppError(503, 'SERVICE_UNAVAILABLE'));
    });
    this.worker = worker;
    return worker;
  }

  /** Ends the thread, failing what it had under way; the next drawing starts a new one. */
  private async restart(err: Error): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    this.pending.clear();
    await worker?.terminate();
  }

  private answered(res: SanitizeResponse): void {
    const p = this.pending.get(res.id);
    if (!p) return;
    this.pending.delete(res.id);
    clearTimeout(p.timer);
    if (this.pending.size === 0) this.idle = setTimeout(() => void this.restart(new AppError(503, 'SERVICE_UNAVAILABLE')), IDLE_MS).unref();
    if (res.ok) return p.resolve(res.result);
    p.reject(res.invalid ? unprocessable('SYNOPTIC_INVALID', { field: 'background.svg', reason: res.invalid.reason }) : new Error(`the SVG sanitiser failed: ${res.error}`));
  }
}
