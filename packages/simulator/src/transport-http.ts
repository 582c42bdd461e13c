import { MAX_BATCH_MESSAGES, type CommandAck, type TelemetryMessage } from '@agua/shared';
import { parseCommand } from './device-core';
import {
  DEFAULT_BUFFER_CAP,
  ErrorLatch,
  backoffMs,
  sleep,
  type Transport,
  type TransportOptions,
} from './transport';

export interface HttpTransportOptions extends TransportOptions {
  /** Base URL of the server, e.g. http://127.0.0.1:8080. */
  url: string;
  /** Hold a long poll for commands (default true). Posting alone also brings commands, later. */
  longPoll?: boolean;
  /** `wait` of the long poll, seconds (default 25). */
  longPollWaitS?: number;
  /** Give up on a telemetry or ack request after this long (default 15 s). */
  requestTimeoutMs?: number;
  /** First retry delay after a failure, doubled up to 30 s (default 1 s). */
  retryBaseMs?: number;
}

/** Statuses after which the same request will never succeed: wrong key, disabled device, … */
const isRetryable = (status: number) => status === 429 || status >= 500 || status === 408;

/**
 * The HTTP side of docs/protocol.md, as an ESP32 with a flaky link would do it: one telemetry request at
 * a time; readings that could not be delivered stay in a bounded buffer and go out as one batch
 * (same seq/boot, so the server drops what it already has); commands come from the long poll and
 * from every telemetry response.
 */
export class HttpTransport implements Transport {
  private readonly base: string;
  private readonly opts: HttpTransportOptions;
  private readonly cap: number;
  private readonly sendLatch: ErrorLatch;
  private readonly pollLatch: ErrorLatch;
  private queue: TelemetryMessage[] = [];
  private posting: Promise<void> | undefined;
  private inFlight = 0; // readings in the telemetry request under way
  private retryTimer: NodeJS.Timeout | undefined;
  private sendFailures = 0;
  private running = false;
  private life = new AbortController();
  private poll: { abort: AbortController; done: Promise<void> } | undefined;

  constructor(options: HttpTransportOptions) {
    this.opts = options;
    this.base = options.url.replace(/\/+$/, '');
    this.cap = options.bufferCap ?? DEFAULT_BUFFER_CAP;
    this.sendLatch = new ErrorLatch(options.logger);
    this.pollLatch = new ErrorLatch(options.logger);
  }

  get buffered(): number {
    return this.queue.length + this.inFlight;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.life = new AbortController();
    this.startPoll();
    this.kick();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.life.abort();
    this.poll?.abort.abort();
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    await Promise.allSettled([this.posting, this.poll?.done]);
    this.poll = undefined;
  }

  send(message: TelemetryMessage): void {
    this.queue.push(message);
    this.trim();
    this.kick();
  }

  /** A reboot: the long poll is dropped and opened again. Buffered readings survive (as in flash). */
  async reconnect(): Promise<void> {
    if (!this.running) return;
    const poll = this.poll;
    this.poll = undefined;
    poll?.abort.abort();
    await poll?.done;
    if (this.running) this.startPoll();
  }

  async ack(commandId: string, ack: CommandAck): Promise<void> {
    const { deviceId, logger, stats } = this.opts;
    const url = `${this.base}/api/v1/devices/${encodeURIComponent(deviceId)}/commands/${encodeURIComponent(commandId)}/ack`;
    // The server waits COMMAND_TIMEOUT_S (10 s) for an ack: a few quick retries fit in that window.
    for (let attempt = 1; attempt <= 4 && this.running; attempt++) {
      try {
        const res = await fetch(url, this.request('POST', JSON.stringify(ack)));
        const body = await readJson(res);
        if (res.ok) {
          stats.acks++;
          return;
        }
        stats.errors++;
        if (!isRetryable(res.status)) {
          logger.warn(`${deviceId}: ack of ${commandId} refused: ${describe(res.status, body)}`);
          return;
        }
        await sleep(retryAfterMs(res) ?? 1000 * attempt, this.life.signal);
      } catch (err) {
        if (!this.running) return;
        stats.errors++;
        logger.debug?.(`${deviceId}: ack of ${commandId} failed: ${reason(err)}`);
        await sleep(1000 * attempt, this.life.signal);
      }
    }
    if (this.running) logger.warn(`${deviceId}: gave up acknowledging ${commandId}`);
  }

  private request(method: 'GET' | 'POST', body?: string, timeoutMs = this.opts.requestTimeoutMs ?? 15_000): RequestInit {
    const headers: Record<string, string> = { 'X-API-Key': this.opts.key };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return {
      method,
      headers,
      body,
      signal: AbortSignal.any([this.life.signal, AbortSignal.timeout(timeoutMs)]),
    };
  }

  /** Start a telemetry request unless one is running or a retry is scheduled. */
  private kick(): void {
    if (!this.running || this.posting || this.retryTimer || this.queue.length === 0) return;
    this.posting = this.postBatch().finally(() => {
      this.posting = undefined;
      this.inFlight = 0;
      this.kick(); // whatever arrived meanwhile goes next, as one batch
    });
  }

  private retryIn(ms: number): void {
    if (!this.running) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.kick();
    }, ms);
  }

  /** Put an unsent batch back in front, keeping at most `cap` (the oldest go first). */
  private requeue(batch: TelemetryMessage[]): void {
    this.inFlight = 0;
    this.queue.unshift(...batch);
    this.trim();
  }

  private trim(): void {
    const excess = this.queue.length - this.cap;
    if (excess > 0) {
      this.queue.splice(0, excess);
      this.opts.stats.dropped += excess;
    }
  }

  private async postBatch(): Promise<void> {
    const { deviceId, stats } = this.opts;
    const batch = this.queue.splice(0, MAX_BATCH_MESSAGES);
    this.inFlight = batch.length;
    const body = JSON.stringify(batch.length === 1 ? batch[0] : batch);
    let res: Response;
    let json: unknown;
    try {
      res = await fetch(`${this.base}/api/v1/telemetry`, this.request('POST', body));
      json = await readJson(res);
    } catch (err) {
      if (!this.running) return;
      this.requeue(batch);
      stats.errors++;
      this.sendFailures++;
      this.sendLatch.fail(`${deviceId}: telemetry failed (${reason(err)}); buffering`);
      this.retryIn(backoffMs(this.sendFailures, this.opts.retryBaseMs));
      return;
    }

    if (res.ok) {
      this.sendFailures = 0;
      const r = (json ?? {}) as { accepted?: unknown; duplicates?: unknown; commands?: unknown };
      stats.sent += batch.length;
      if (typeof r.duplicates === 'number') stats.duplicates += r.duplicates;
      this.sendLatch.ok(`${deviceId}: telemetry delivered again (${batch.length} in the batch)`);
      if (Array.isArray(r.commands)) for (const c of r.commands) this.deliver(c);
      return;
    }

    stats.errors++;
    if (isRetryable(res.status)) {
      this.requeue(batch);
      this.sendFailures++;
      this.sendLatch.fail(`${deviceId}: telemetry ${describe(res.status, json)}; buffering`);
      this.retryIn(retryAfterMs(res) ?? backoffMs(this.sendFailures, this.opts.retryBaseMs));
      return;
    }

    // A 4xx other than 429 will never be accepted as is. A batch is refused whole for one bad
    // message (details.index): drop only that one and send the rest again.
    const index = (json as { details?: { index?: unknown } } | undefined)?.details?.index;
    if (batch.length > 1 && typeof index === 'number' && index >= 0 && index < batch.length) {
      batch.splice(index, 1);
      stats.dropped++;
      this.requeue(batch);
    } else {
      stats.dropped += batch.length;
    }
    this.sendLatch.fail(`${deviceId}: telemetry refused, ${describe(res.status, json)}; dropped`);
  }

  private startPoll(): void {
    if (this.opts.longPoll === false) return;
    const abort = new AbortController();
    this.poll = { abort, done: this.pollLoop(abort.signal) };
  }

  private async pollLoop(signal: AbortSignal): Promise<void> {
    const { deviceId } = this.opts;
    const wait = this.opts.longPollWaitS ?? 25;
    const url = `${this.base}/api/v1/devices/${encodeURIComponent(deviceId)}/commands?wait=${wait}`;
    let failures = 0;
    while (this.running && !signal.aborted) {
      const startedAt = Date.now();
      try {
        const init = this.request('GET', undefined, (wait + 15) * 1000);
        init.signal = AbortSignal.any([init.signal!, signal]);
        const res = await fetch(url, init);
        const json = await readJson(res);
        if (res.ok) {
          failures = 0;
          this.pollLatch.ok(`${deviceId}: command poll back`);
          const list = Array.isArray(json) ? json : [];
          for (const c of list) this.deliver(c);
          // A server that answers at once (no long poll support) must not turn this into a busy loop.
          if (list.length === 0 && Date.now() - startedAt < 1000) await sleep(1000, signal);
          continue;
        }
        failures++;
        this.opts.stats.errors++;
        this.pollLatch.fail(`${deviceId}: command poll ${describe(res.status, json)}`);
        // Wrong key, disabled or unknown device: nothing changes soon, ask rarely.
        const slow = res.status === 401 || res.status === 403 || res.status === 404;
        await sleep(retryAfterMs(res) ?? (slow ? 30_000 : backoffMs(failures, this.opts.retryBaseMs)), signal);
      } catch (err) {
        if (signal.aborted || !this.running) return;
        failures++;
        this.opts.stats.errors++;
        this.pollLatch.fail(`${deviceId}: command poll failed (${reason(err)})`);
        await sleep(backoffMs(failures, this.opts.retryBaseMs), signal);
      }
    }
  }

  private deliver(raw: unknown): void {
    const command = parseCommand(raw);
    if (!command) {
      this.opts.logger.warn(`${this.opts.deviceId}: ignoring malformed command ${JSON.stringify(raw)}`);
      return;
    }
    this.opts.stats.commands++;
    try {
      this.opts.onCommand(command);
    } catch (err) {
      this.opts.logger.error(`${this.opts.deviceId}: command ${command.id} crashed: ${reason(err)}`);
    }
  }
}

/** Read the body fully (so the socket is reused) and parse it if it is JSON. */
async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Retry-After as seconds or an HTTP date, capped to a minute. */
function retryAfterMs(res: Response): number | undefined {
  const h = res.headers.get('retry-after');
  if (!h) return res.status === 429 ? 1000 : undefined;
  const seconds = Number(h);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(h) - Date.now();
  if (!Number.isFinite(ms)) return 1000;
  return Math.min(60_000, Math.max(0, ms));
}

function describe(status: number, body: unknown): string {
  const code = (body as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? `${status} ${code}` : `${status}`;
}

function reason(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? err.message;
  }
  return String(err);
}
