import type { FastifyBaseLogger } from 'fastify';
import { DELIVERY_RETRY, retryDelayMs } from '@agua/shared';
import { PermanentDeliveryError, type Message } from './channels/channel';
import { SubscriptionGoneError } from './channels/push-channel';
import type { DeliveryRecord, NotificationsRepository } from './notifications.repository';
import type { DeliveryOutcome, OutboxEntry } from './outbox';

/** The outbox's writes, done by the storage's writer thread. */
export interface OutboxStore {
  writeOutbox(entries: OutboxEntry[]): Promise<number>;
  claimOutbox(claims: Array<{ id: string; retryAtMs: number }>): Promise<void>;
  settleOutbox(outcomes: DeliveryOutcome[]): Promise<void>;
}

/** Sends one notification on its channel; throws to fail the attempt. */
export type Deliver = (delivery: DeliveryRecord, message: Message) => Promise<void>;

export interface SenderOptions {
  /** Attempts under way at once: a receiver that never answers holds one slot, not the others. */
  concurrency: number;
  pollMs: number;
  /** A subscription the push service says is over is forgotten. */
  forgetSubscription: (id: string) => Promise<void>;
}

/**
 * Sends what the outbox holds (ALARMS.md "Delivery that does not lose"): due notifications are
 * claimed (their attempt counted, and due again after the backoff should the attempt never end),
 * sent with a time limit, and settled: sent, to retry after 1 s, 2 s, 4 s … 15 min, or given up
 * after 24 h or a refusal no retry can fix. Runs beside ingest and the alarm engine, never in
 * their way: they only write rows; this reads them. A crash during an attempt means it is made
 * again after its backoff, with the same delivery id (X-Agua-Delivery, Message-ID).
 */
export class NotificationSender {
  private readonly inFlight = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private again = false;
  private outcomes: DeliveryOutcome[] = [];
  private settling: Promise<void> = Promise.resolve();
  private stopped = true;

  constructor(
    private readonly repo: NotificationsRepository,
    private readonly store: OutboxStore,
    private readonly deliver: Deliver,
    private readonly log: FastifyBaseLogger,
    private readonly opts: SenderOptions,
  ) {}

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), this.opts.pollMs);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.flush();
  }

  /** Looks for due notifications now (new ones were written). */
  kick(): void {
    if (this.stopped) return;
    if (this.polling) {
      this.again = true;
      return;
    }
    this.polling = true;
    void this.poll()
      .catch((err: unknown) => this.log.error({ err }, 'reading the notification outbox failed'))
      .finally(() => {
        this.polling = false;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async poll(): Promise<void> {
    const free = this.opts.concurrency - this.inFlight.size;
    if (free <= 0) return;
    const now = Date.now();
    const due = (await this.repo.due(now, free + this.inFlight.size)).filter((d) => !this.inFlight.has(d.id)).slice(0, free);
    if (due.length === 0) return;
    for (const d of due) this.inFlight.add(d.id);
    try {
      await this.store.claimOutbox(due.map((d) => ({ id: d.id, retryAtMs: now + retryDelayMs(d.attempts + 1) })));
    } catch (err) {
      for (const d of due) this.inFlight.delete(d.id);
      throw err;
    }
    for (const d of due) void this.attempt(d, now);
  }

  private async attempt(d: DeliveryRecord, claimedAtMs: number): Promise<void> {
    let outcome: DeliveryOutcome;
    try {
      await this.deliver(d, { deliveryId: d.id, content: d.content });
      outcome = { id: d.id, ok: true, atMs: Date.now() };
    } catch (err) {
      const error = describe(err);
      const over = err instanceof PermanentDeliveryError || Date.now() - d.createdAtMs >= DELIVERY_RETRY.giveUpAfterMs;
      outcome = { id: d.id, ok: false, error, retryAtMs: over ? null : claimedAtMs + retryDelayMs(d.attempts + 1) };
      if (err instanceof SubscriptionGoneError && d.target) await this.opts.forgetSubscription(d.target).catch(() => undefined);
      this.log.warn({ delivery: d.id, channel: d.channel, attempts: d.attempts + 1, error, givenUp: over }, 'a notification attempt failed');
    }
    this.outcomes.push(outcome);
    await this.flush();
    this.inFlight.delete(d.id);
    this.kick();
  }

  /** Settles the outcomes gathered so far in one write. */
  private flush(): Promise<void> {
    this.settling = this.settling.then(async () => {
      const outcomes = this.outcomes.splice(0);
      if (outcomes.length === 0) return;
      await this.store.settleOutbox(outcomes).catch((err: unknown) => {
        // Unsettled attempts stay claimed: they are made again after their backoff.
        this.log.error({ err, outcomes: outcomes.length }, 'storing notification outcomes failed');
      });
    });
    return this.settling;
  }
}

function describe(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'sin respuesta en 10 s';
  const cause = e?.cause?.code ?? e?.cause?.message;
  return (cause ? `${e?.message ?? 'error'} (${cause})` : (e?.message ?? String(err))).slice(0, 500);
}
