import type { FastifyBaseLogger } from 'fastify';
import { iso } from '../../lib/time';
import type { AuditEntry, AuditEventRecord, AuditQuery, AuditRepository } from './audit.repository';

export interface AuditServiceOptions {
  /** How long repeated refusals are gathered before their summary is written (AUDIT_COLLAPSE_WINDOW_MS). */
  collapseWindowMs: number;
  /** Refusals one actor may write per window before the rest are only counted. */
  actorBudget?: number;
}

const DEFAULT_ACTOR_BUDGET = 120;

/** Events held back from the trail for a window: they are counted, and summed up in one event when it closes. */
interface Held {
  entry: AuditEntry;
  count: number;
  firstAtMs: number;
  lastAtMs: number;
  overBudget: boolean;
  timer: NodeJS.Timeout;
}

/**
 * Records who did what; a failure to record is logged loudly but never hides the action's own result.
 *
 * The trail is append-only, so whoever can make the server refuse something (a viewer sending
 * commands, anyone failing a sign-in) could otherwise fill the disk with refusals. Refusals
 * (result `denied` or `failed`) are therefore collapsed over a window (60 s by default): the first
 * of identical ones (same action, user, target, address, result and details) is written at once;
 * its repeats within the window are only counted, and when the window closes one more event is
 * written with the first one's fields and `details: {...details, repeated, firstAt, lastAt}` (the
 * repeats' count and times). Beyond a budget of refusals per actor and window (120: a user, else
 * the address, else the device), further refusals, identical or not, are counted the same way and
 * summed up per action (`overBudget: true`, the first one's fields). Nothing is ever updated, and
 * successful events are always written at once.
 */
export class AuditService {
  private readonly windowMs: number;
  private readonly budget: number;
  /** Collapse windows by identity of the event. */
  private readonly repeats = new Map<string, Held>();
  /** Refusals past an actor's budget, by actor and action. */
  private readonly overflow = new Map<string, Held>();
  /** Refusals written per actor in its current window. */
  private readonly spent = new Map<string, number>();
  private readonly budgetTimers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly repo: AuditRepository,
    private readonly log: FastifyBaseLogger,
    options: AuditServiceOptions,
  ) {
    this.windowMs = options.collapseWindowMs;
    this.budget = options.actorBudget ?? DEFAULT_ACTOR_BUDGET;
  }

  async record(entry: AuditEntry): Promise<void> {
    if (entry.result !== 'ok' && !this.admit(entry, Date.now())) return;
    await this.write(entry);
  }

  /** A page of the trail, newest first (the audit routes read it through here). */
  page(q: AuditQuery): Promise<AuditEventRecord[]> {
    return this.repo.page(q);
  }

  /** Writes the summaries of every open window now (shutdown): no count is lost. */
  async stop(): Promise<void> {
    const held = [...this.repeats.values(), ...this.overflow.values()];
    this.repeats.clear();
    this.overflow.clear();
    for (const t of this.budgetTimers) clearTimeout(t);
    this.budgetTimers.clear();
    this.spent.clear();
    for (const h of held) clearTimeout(h.timer);
    await Promise.all(held.map((h) => this.summarise(h)));
  }

  /** Whether a refusal is written now; if not, it has been counted in a window. */
  private admit(entry: AuditEntry, now: number): boolean {
    const key = JSON.stringify([entry.action, entry.userId, entry.username, entry.target, entry.ip, entry.result, entry.details ?? null]);
    const same = this.repeats.get(key);
    if (same) return this.count(same, now);
    const actor = actorOf(entry);
    const spent = this.spent.get(actor) ?? 0;
    if (spent >= this.budget) {
      const overKey = `${actor}\u0000${entry.action}`;
      const over = this.overflow.get(overKey);
      if (over) return this.count(over, now);
      this.overflow.set(overKey, this.hold(entry, now, 1, true, () => this.overflow.delete(overKey)));
      return false;
    }
    if (spent === 0) this.startBudget(actor);
    this.spent.set(actor, spent + 1);
    // Written now; the window only counts what follows.
    this.repeats.set(key, this.hold(entry, now, 0, false, () => this.repeats.delete(key)));
    return true;
  }

  private count(held: Held, now: number): false {
    if (held.count === 0) held.firstAtMs = now;
    held.count += 1;
    held.lastAtMs = now;
    return false;
  }

  private hold(entry: AuditEntry, now: number, count: number, overBudget: boolean, forget: () => void): Held {
    const held: Held = {
      entry,
      count,
      firstAtMs: now,
      lastAtMs: now,
      overBudget,
      timer: setTimeout(() => {
        forget();
        void this.summarise(held);
      }, this.windowMs),
    };
    held.timer.unref();
    return held;
  }

  private startBudget(actor: string): void {
    const timer = setTimeout(() => {
      this.spent.delete(actor);
      this.budgetTimers.delete(timer);
    }, this.windowMs);
    timer.unref();
    this.budgetTimers.add(timer);
  }

  private async summarise(held: Held): Promise<void> {
    if (held.count === 0) return;
    await this.write({
      ...held.entry,
      details: {
        ...held.entry.details,
        repeated: held.count,
        firstAt: iso(held.firstAtMs),
        lastAt: iso(held.lastAtMs),
        ...(held.overBudget ? { overBudget: true } : {}),
      },
    });
  }

  private async write(entry: AuditEntry): Promise<void> {
    try {
      await this.repo.append(entry, Date.now());
    } catch (err) {
      this.log.error({ err, action: entry.action }, 'audit event could not be stored');
    }
  }
}

/**
 * Who an event's budget belongs to: the signed-in user; else the address (sign-in failures); else,
 * with neither (a device over MQTT), the device it names.
 */
function actorOf(entry: AuditEntry): string {
  if (entry.userId) return `user:${entry.userId}`;
  if (entry.ip) return `ip:${entry.ip}`;
  return entry.target ?? 'server';
}
