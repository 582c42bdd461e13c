import type { FastifyBaseLogger } from 'fastify';
import { DELIVERY_RETRY, NOTIFICATION_CHANNELS, retryDelayMs, type NotificationChannel } from '@agua/shared';
import { DeliveryError, PermanentDeliveryError, type Message } from './channels/channel';
import { SubscriptionGoneError } from './channels/push-channel';
import type { DeliveryRecord, NotificationsRepository } from './notifications.repository';
import type { DeliveryOutcome, OutboxClaim, OutboxEntry } from './outbox';

/** The outbox's writes, done by the ingest store (storage/ingest): the same shapes as its rows. */
export interface OutboxStore {
  writeOutbox(entries: OutboxEntry[]): Promise<number>;
  claimOutbox(claims: OutboxClaim[]): Promise<void>;
  settleOutbox(outcomes: DeliveryOutcome[]): Promise<void>;
}

/** Sends notifications of one channel and recipient — one, or an e-mail digest of several; throws to fail the attempt. */
export type Deliver = (deliveries: DeliveryRecord[], messages: Message[]) => Promise<void>;

export interface SenderOptions {
  /** Attempts under way at once per channel: a slow channel never delays another. */
  concurrency: Record<NotificationChannel, number>;
  /**
   * Attempts under way at once per destination — a host, a user's browsers — so that one
   * receiver that never finishes answering holds a few slots of its channel, never all of them.
   */
  perDestination: (key: string) => number;
  /** The destinations an attempt occupies (keys such as `host:fcm.googleapis.com`); none: only the channel's limit. */
  destinationsOf: (delivery: DeliveryRecord) => string[];
  /** The longest an attempt can take (its deadline). */
  attemptMs: number;
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
/** The longest a claim waits for others of its destinations (then it is a claim past its lease, skipped by the query). */
const MAX_QUEUE_WAIT_MS = 15 * 60_000;
/** Held rows past their lease that the claim query skips, at most (a bound on its parameters). */
const MAX_SKIPPED = 5_000;
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
  /** Claimed and not yet settled (queued or under way), with the end of each claim: never claimed twice. */
  held: Map<number, number>;
  /** The destinations of each queued row, fixed when it was claimed. */
  destinations: Map<number, string[]>;
  /** Attempts under way per destination. */
  busy: Map<string, number>;
}

const newLane = (channel: NotificationChannel): Lane => ({ channel, queue: [], inFlight: 0, held: new Map(), destinations: new Map(), busy: new Map() });

/**
 * Sends what the outbox holds (docs/alarms.md "Delivery that does not lose"). Per channel, due
 * notifications are claimed in batches (their attempt counted, and due again after a lease
 * should the attempt never end), sent within the attempt deadline — a few at a time per
 * destination, rows for a busy one passed over by the rest; e-mails waiting for the same person
 * as one digest, so a flood is a few messages, not hundreds — and settled in batches: sent, to
 * retry after 1 s, 2 s, 4 s … 15 min, or given up after 24 h or a refusal no retry can fix.
 * Claims and settlements are a few writes a second, whatever the flood, so ingest keeps the
 * writer; a slow SMTP server never delays a webhook, a slow webhook receiver never another. A
 * crash during an attempt means it is made again when its lease ends, with the same delivery id
 * (X-Agua-Delivery, Message-ID).
 */
export class NotificationSender {
  private readonly lanes = new Map<NotificationChannel, Lane>(NOTIFICATION_CHANNELS.map((c) => [c, newLane(c)]));
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

  /** Sends what a previous run left unsent first; the job list then calls `pollNow` every NOTIFICATION_POLL_MS. */
  start(): void {
    this.stopped = false;
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
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

  /** Looks for due notifications now: after a kick, and every NOTIFICATION_POLL_MS from the job list. */
  pollNow(): void {
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

  /**
   * Claims a batch for every channel with nothing queued that may start now, in one write: a
   * queue holding only rows for busy destinations does not keep other destinations' rows out.
   */
  private async poll(): Promise<void> {
    const now = Date.now();
    const claimed: Array<{ lane: Lane; rows: DeliveryRecord[] }> = [];
    for (const [channel, lane] of this.lanes) {
      if (this.nextStartable(lane) >= 0) continue;
      // Rows held here past their lease are due again in the table: the query passes over them,
      // or a long wait behind a busy destination would fill every batch with rows already here.
      const skip = [...lane.held].filter(([, until]) => until <= now).map(([row]) => row).slice(0, MAX_SKIPPED);
      const rows = (await this.repo.due(channel, now, CLAIM_BATCH[channel], skip)).filter((d) => !lane.held.has(d.row));
      if (rows.length > 0) claimed.push({ lane, rows });
    }
    if (claimed.length === 0) return;
    const claims: OutboxClaim[] = [];
    for (const { lane, rows } of claimed) {
      const ahead = this.loadOf(lane);
      for (const d of rows) {
        const destinations = this.opts.destinationsOf(d);
        lane.destinations.set(d.row, destinations);
        // A row behind others of its destinations waits for them, an attempt deadline per round
        // of slots at most: its lease covers that wait (up to MAX_QUEUE_WAIT_MS), so that it is
        // not due again — for another instance to take — while it waits here.
        const rounds = Math.max(0, ...destinations.map((k) => Math.floor((ahead.get(k) ?? 0) / this.opts.perDestination(k))));
        for (const k of destinations) ahead.set(k, (ahead.get(k) ?? 0) + 1);
        const wait = Math.min(rounds * this.opts.attemptMs, MAX_QUEUE_WAIT_MS);
        claims.push({ row: d.row, retryAtMs: now + wait + Math.max(CLAIM_LEASE_MS, this.opts.attemptMs, retryDelayMs(d.attempts + 1)) });
      }
    }
    await this.store.claimOutbox(claims);
    const until = new Map(claims.map((c) => [c.row, c.retryAtMs]));
    for (const { lane, rows } of claimed) {
      for (const d of rows) lane.held.set(d.row, until.get(d.row)!);
      lane.queue.push(...rows);
      this.pump(lane, now);
    }
  }

  /** Rows queued or under way, per destination. */
  private loadOf(lane: Lane): Map<string, number> {
    const load = new Map(lane.busy);
    for (const d of lane.queue) for (const k of lane.destinations.get(d.row) ?? []) load.set(k, (load.get(k) ?? 0) + 1);
    return load;
  }

  /** The first queued row whose destinations all have a free slot: rows for busy ones are passed over, never waited behind. */
  private nextStartable(lane: Lane): number {
    return lane.queue.findIndex((d) => (lane.destinations.get(d.row) ?? []).every((k) => (lane.busy.get(k) ?? 0) < this.opts.perDestination(k)));
  }

  private pump(lane: Lane, claimedAtMs: number): void {
    while (!this.stopped && lane.inFlight < this.opts.concurrency[lane.channel]) {
      const index = this.nextStartable(lane);
      if (index < 0) break;
      const group = takeGroup(lane.queue, index);
      const destinations = lane.destinations.get(group[0]!.row) ?? [];
      for (const d of group) lane.destinations.delete(d.row);
      for (const k of destinations) lane.busy.set(k, (lane.busy.get(k) ?? 0) + 1);
      lane.inFlight++;
      void this.attempt(group, claimedAtMs).finally(() => {
        lane.inFlight--;
        for (const k of destinations) {
          const n = lane.busy.get(k)! - 1;
          if (n > 0) lane.busy.set(k, n);
          else lane.busy.delete(k);
        }
        this.pump(lane, Date.now());
        // Nothing queued may start: look for more (one query per channel, not one per attempt).
        if (this.nextStartable(lane) < 0) this.kick();
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
      // The raw error (an address, a socket error) is for the server's log, never the delivery log.
      const detail = err instanceof Error ? (err.cause ?? err.message) : String(err);
      this.log.warn({ deliveries: group.map((d) => d.id), channel: group[0]!.channel, attempts: group[0]!.attempts + 1, error, detail }, 'a notification attempt failed');
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

/** The notification at `index`, with — for e-mail — every other one queued for the same person. */
function takeGroup(queue: DeliveryRecord[], index: number): DeliveryRecord[] {
  const first = queue.splice(index, 1)[0]!;
  // A report's e-mail carries its files and subject: it goes alone.
  if (first.channel !== 'email' || first.event === 'report') return [first];
  const group = [first];
  for (let i = 0; i < queue.length && group.length < DIGEST_MAX; ) {
    if (queue[i]!.recipientId === first.recipientId && queue[i]!.event !== 'report') group.push(...queue.splice(i, 1));
    else i++;
  }
  return group;
}

/** The delivery log's words: a DeliveryError's message (the delivery thread's words for what happened). */
function describe(err: unknown): string {
  return err instanceof DeliveryError ? err.message.slice(0, 500) : 'error de envío';
}
