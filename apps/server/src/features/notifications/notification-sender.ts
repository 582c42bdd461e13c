import type { FastifyBaseLogger } from 'fastify';
import { DELIVERY_RETRY, NOTIFICATION_CHANNELS, retryDelayMs, type NotificationChannel } from '@agua/shared';
import { PermanentDeliveryError, type Message } from './channels/channel';
import { SubscriptionGoneError } from './channels/push-channel';
import type { DeliveryRecord, NotificationsRepository } from './notifications.repository';
import type { DeliveryOutcome, OutboxClaim, OutboxEntry } from './outbox';

/** The outbox's writes, done by the storage's writer thread. */
export interface OutboxStore {
  writeOutbox(entries: OutboxEntry[]): Promise<number>;
  claimOutbox(claims: OutboxClaim[]): Promise<void>;
  settleOutbox(outcomes: DeliveryOutcome[]): Promise<void>;
}

/** Sends notifications of one channel and recipient — one, or an e-mail digest of several; throws to fail the attempt. */
export type Deliver = (deliveries: DeliveryRecord[], messages: Message[]) => Promise<void>;

export interface SenderOptions {
  /** Attempts under way at once per channel: a receiver that never answers holds one slot, and a slow channel never delays another. */
  concurrency: Record<NotificationChannel, number>;
  pollMs: number;
  /** A subscription the push service says is over is forgotten. */
  forgetSubscription: (id: string) => Promise<void>;
}

/** Rows claimed per query: one write claims many (e-mail more, so that a flood makes few digests). */
const CLAIM_BATCH: Record<NotificationChannel, number> = { email: 1000, webhook: 200, push: 200 };
/**
 * A claim holds a row at least this long (or its backoff, if longer): claimed rows waiting in a
 * queue are not read again, and after a crash the interrupted attempts are made again after it.
 */
const CLAIM_LEASE_MS = 10_000;
/** Outcomes are settled together, at most this long after the first of them. */
const SETTLE_EVERY_MS = 50;
/** Kicks this close together make one look at the outbox. */
const KICK_COALESCE_MS = 25;
/** E-mails waiting for the same person go as one message, up to this many (the e-mail lists the first few). */
const DIGEST_MAX = 1000;

/** One channel's queue: claimed rows waiting for a slot, and the attempts under way. */
interface Lane {
  channel: NotificationChannel;
  queue: DeliveryRecord[];
  inFlight: number;
  /** Claimed and not yet settled (queued or under way): never claimed twice. */
  held: Set<number>;
}

/**
 * Sends what the outbox holds (ALARMS.md "Delivery that does not lose"). Per channel, due
 * notifications are claimed in batches (their attempt counted, and due again after a lease
 * should the attempt never end), sent with a time limit — e-mails waiting for the same person as
 * one digest, so a flood is a few messages, not hundreds — and settled in batches: sent, to retry
 * after 1 s, 2 s, 4 s … 15 min, or given up after 24 h or a refusal no retry can fix. Claims and
 * settlements are a few writes a second, whatever the flood, so ingest keeps the writer; a slow
 * SMTP server never delays a webhook. A crash during an attempt means it is made again when its
 * lease ends, with the same delivery id (X-Agua-Delivery, Message-ID).
 */
export class NotificationSender {
  private readonly lanes = new Map<NotificationChannel, Lane>(NOTIFICATION_CHANNELS.map((c) => [c, { channel: c, queue: [], inFlight: 0, held: new Set<number>() }]));
  private timer: NodeJS.Timeout | undefined;
  private kickTimer: NodeJS.Timeout | undefined;
  private polling = false;
  private again = false;
  private outcomes: DeliveryOutcome[] = [];
  private settleTimer: NodeJS.Timeout | undefined;
  private settling: Promise<void> = Promise.resolve();
  private stopped = true;
  private pollRun: Promise<void> | null = null;

  constructor(
    private readonly repo: NotificationsRepository,
    private readonly store: OutboxStore,
    private readonly deliver: Deliver,
    private readonly log: FastifyBaseLogger,
    private readonly opts: SenderOptions,
  ) {}

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.pollNow(), this.opts.pollMs);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.kickTimer);
    this.kickTimer = undefined;
    // A look under way finishes before the storage it reads can close.
    await this.pollRun;
    await this.settleNow();
  }

  /**
   * Looks for due notifications soon (new ones were written). Kicks within KICK_COALESCE_MS make
   * one look: an alarm flood announces thousands of changes, and each look costs queries.
   */
  kick(): void {
    if (this.stopped || this.kickTimer) return;
    this.kickTimer = setTimeout(() => {
      this.kickTimer = undefined;
      this.pollNow();
    }, KICK_COALESCE_MS);
  }

  private pollNow(): void {
    if (this.stopped) return;
    if (this.polling) {
      this.again = true;
      return;
    }
    this.polling = true;
    this.pollRun = this.poll()
      .catch((err: unknown) => this.log.error({ err }, 'reading the notification outbox failed'))
      .finally(() => {
        this.polling = false;
        this.pollRun = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Claims a batch for every channel whose queue runs low, in one write. */
  private async poll(): Promise<void> {
    const now = Date.now();
    const claimed: Array<{ lane: Lane; rows: DeliveryRecord[] }> = [];
    for (const [channel, lane] of this.lanes) {
      if (lane.queue.length > 0) continue;
      const rows = (await this.repo.due(channel, now, CLAIM_BATCH[channel])).filter((d) => !lane.held.has(d.row));
      if (rows.length > 0) claimed.push({ lane, rows });
    }
    if (claimed.length === 0) return;
    const claims = claimed.flatMap(({ rows }) => rows.map((d) => ({ row: d.row, retryAtMs: now + Math.max(CLAIM_LEASE_MS, retryDelayMs(d.attempts + 1)) })));
    await this.store.claimOutbox(claims);
    for (const { lane, rows } of claimed) {
      for (const d of rows) lane.held.add(d.row);
      lane.queue.push(...rows);
      this.pump(lane, now);
    }
  }

  private pump(lane: Lane, claimedAtMs: number): void {
    while (!this.stopped && lane.inFlight < this.opts.concurrency[lane.channel] && lane.queue.length > 0) {
      const group = takeGroup(lane.queue);
      lane.inFlight++;
      void this.attempt(group, claimedAtMs).finally(() => {
        lane.inFlight--;
        this.pump(lane, Date.now());
        // The queue ran dry: look for more (one query per channel, not one per attempt).
        if (lane.queue.length === 0) this.kick();
      });
    }
  }

  /** One attempt for a group (one notification, or an e-mail digest); every row gets its outcome. */
  private async attempt(group: DeliveryRecord[], claimedAtMs: number): Promise<void> {
    try {
      await this.deliver(
        group,
        group.map((d) => ({ deliveryId: d.id, content: d.content })),
      );
      const atMs = Date.now();
      for (const d of group) this.outcomes.push({ row: d.row, ok: true, atMs });
    } catch (err) {
      const error = describe(err);
      for (const d of group) {
        const over = err instanceof PermanentDeliveryError || Date.now() - d.createdAtMs >= DELIVERY_RETRY.giveUpAfterMs;
        this.outcomes.push({ row: d.row, ok: false, error, retryAtMs: over ? null : Math.max(Date.now(), claimedAtMs) + retryDelayMs(d.attempts + 1) });
        if (err instanceof SubscriptionGoneError && d.target) await this.opts.forgetSubscription(d.target).catch(() => undefined);
      }
      this.log.warn({ deliveries: group.map((d) => d.id), channel: group[0]!.channel, attempts: group[0]!.attempts + 1, error }, 'a notification attempt failed');
    }
    this.settleTimer ??= setTimeout(() => void this.settleNow(), SETTLE_EVERY_MS);
  }

  /** Settles the outcomes gathered so far in one write; then they may be claimed again. */
  private settleNow(): Promise<void> {
    clearTimeout(this.settleTimer);
    this.settleTimer = undefined;
    this.settling = this.settling.then(async () => {
      const outcomes = this.outcomes.splice(0);
      if (outcomes.length === 0) return;
      try {
        await this.store.settleOutbox(outcomes);
      } catch (err) {
        // Unsettled attempts stay claimed: they are made again after their backoff.
        this.log.error({ err, outcomes: outcomes.length }, 'storing notification outcomes failed');
      }
      for (const lane of this.lanes.values()) for (const o of outcomes) lane.held.delete(o.row);
    });
    return this.settling;
  }
}

/** The next notification, with — for e-mail — every other one queued for the same person. */
function takeGroup(queue: DeliveryRecord[]): DeliveryRecord[] {
  const first = queue.shift()!;
  if (first.channel !== 'email') return [first];
  const group = [first];
  for (let i = 0; i < queue.length && group.length < DIGEST_MAX; ) {
    if (queue[i]!.recipientId === first.recipientId) group.push(...queue.splice(i, 1));
    else i++;
  }
  return group;
}

function describe(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'sin respuesta en 10 s';
  const cause = e?.cause?.code ?? e?.cause?.message;
  return (cause ? `${e?.message ?? 'error'} (${cause})` : (e?.message ?? String(err))).slice(0, 500);
}
