import { randomBytes } from 'node:crypto';
import {
  alarmNotification,
  escalationRoundDue,
  isEmailAddress,
  testNotification,
  type AlarmPriority,
  type CreateWebhookBody,
  type Delivery,
  type EscalationPolicy,
  type MyNotifications,
  type NotificationContent,
  type NotificationPreferences,
  type PushSubscriptionBody,
  type UpdateWebhookBody,
  type Webhook,
  DEFAULT_WEBHOOK_MIN_PRIORITY,
} from '@agua/shared';
import { AppError, conflict, notFound, unprocessable } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { iso } from '../../lib/time';
import { TokenBuckets } from '../../lib/token-buckets';
import type { AuditService } from '../audit/audit.service';
import type { AlarmRecord } from '../alarms/alarms.repository';
import type { UserRecord } from '../users/users.repository';
import type { AlarmNotices } from './alarm-notices';
import type { Message } from './channels/channel';
import { destinationAllowed, WEBHOOK_POLICY, type DestinationPolicy } from './channels/destinations';
import type { NotificationDirectory } from './notification-directory';
import type { DeliveryRecord, NotificationsRepository, WebhookRecord } from './notifications.repository';
import type { OutboxStore } from './notification-sender';
import type { OutboxEntry, OutboxTarget } from './outbox';

interface Actor {
  user: UserRecord;
  ip: string;
}

export interface NotificationsServiceDeps {
  repo: NotificationsRepository;
  directory: NotificationDirectory;
  notices: AlarmNotices;
  store: OutboxStore;
  audit: AuditService;
  vapidPublicKey: string;
  link: () => string | null;
  /** Push endpoints on plain http (tests with a local push service only). */
  allowInsecurePush: boolean;
  /** Where push endpoints may be: public push services (or local ones, PUSH_ALLOW_PRIVATE, tests only). */
  pushPolicy: DestinationPolicy;
  /** New notifications were written: send them now rather than at the next poll. */
  written: () => void;
}

export const toWebhook = (w: WebhookRecord): Webhook => ({
  id: w.id,
  name: w.name,
  url: w.url,
  format: w.format,
  chatId: w.chatId,
  minPriority: w.minPriority,
  enabled: w.enabled,
  createdAt: iso(w.createdAtMs)!,
});

/**
 * Browsers with push per user (one subscription each): a new one beyond this replaces the one
 * subscribed longest ago — most likely a browser no longer used, which the user could not reach
 * to turn push off.
 */
export const PUSH_SUBSCRIPTIONS_PER_USER = 10;
/** 'Enviar prueba' of any channel, per user: this many at once, then one every 12 s. */
const TEST_SENDS = { burst: 5, perMinute: 5 };

/**
 * Who is told what (per-user choices, push subscriptions, webhooks, escalation), the tests of
 * each channel, the escalation rounds and the delivery log. Sending is NotificationSender's.
 */
export class NotificationsService {
  private readonly testSends = new TokenBuckets(TEST_SENDS.burst, TEST_SENDS.perMinute / 60);

  constructor(private readonly d: NotificationsServiceDeps) {}

  // --- 'Mis notificaciones' ------------------------------------------------------------------

  mine(user: UserRecord): MyNotifications {
    const p = this.d.directory.preferencesOf(user.id);
    return {
      preferences: { email: { minPriority: p.emailMinPriority }, push: { minPriority: p.pushMinPriority } },
      email: user.email || null,
      channels: { ...this.d.directory.channels },
      vapidPublicKey: this.d.vapidPublicKey,
      pushSubscriptions: this.d.directory.subscriptionsOf(user.id).length,
    };
  }

  async savePreferences(user: UserRecord, prefs: NotificationPreferences): Promise<MyNotifications> {
    await this.d.repo.savePreferences({ userId: user.id, emailMinPriority: prefs.email.minPriority as AlarmPriority | null, pushMinPriority: prefs.push.minPriority as AlarmPriority | null });
    await this.d.directory.reload();
    return this.mine(user);
  }

  /**
   * Turns push on for a browser. The endpoint must be a public push service (checked again at
   * every attempt); it belongs to the first user who subscribed it until that user lets it go.
   */
  async subscribePush(user: UserRecord, body: PushSubscriptionBody): Promise<MyNotifications> {
    const url = safeUrl(body.endpoint);
    if (!url || !(url.protocol === 'https:' || (this.d.allowInsecurePush && url.protocol === 'http:'))) throw unprocessable('PUSH_ENDPOINT_INVALID');
    if (!(await destinationAllowed(url, this.d.pushPolicy))) throw unprocessable('PUSH_ENDPOINT_NOT_ALLOWED');
    const saved = await this.d.repo.savePushSubscription(
      { id: newId('psh'), userId: user.id, endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth, createdAtMs: Date.now() },
      PUSH_SUBSCRIPTIONS_PER_USER,
    );
    if (!saved) throw conflict('PUSH_ENDPOINT_TAKEN');
    await this.d.directory.reload();
    return this.mine(user);
  }

  async unsubscribePush(user: UserRecord, endpoint: string): Promise<void> {
    if ((await this.d.repo.deletePushSubscription({ userId: user.id, endpoint })) === 0) throw notFound('PUSH_SUBSCRIPTION_NOT_FOUND');
    await this.d.directory.reload();
  }

  async forgetSubscription(id: string): Promise<void> {
    await this.d.repo.deletePushSubscription({ id });
    await this.d.directory.reload();
  }

  /** A test push to every browser of the user where push is on. */
  async testPush(user: UserRecord): Promise<{ queued: number }> {
    if (!this.d.directory.channels.push) throw conflict('CHANNEL_NOT_CONFIGURED');
    const targets = this.d.directory.pushTargets(user.id);
    if (targets.length === 0) throw notFound('PUSH_SUBSCRIPTION_NOT_FOUND');
    return { queued: await this.writeTests(user, targets) };
  }

  /** A test e-mail to the signed-in admin's own address. */
  async testEmail(user: UserRecord): Promise<{ queued: number }> {
    if (!this.d.directory.channels.email) throw conflict('CHANNEL_NOT_CONFIGURED');
    return { queued: await this.writeTests(user, [{ recipientKind: 'user', recipientId: user.id, channel: 'email', target: null }]) };
  }

  // --- webhooks (admin) ----------------------------------------------------------------------

  webhooks(): Webhook[] {
    return this.d.directory.webhooks().map(toWebhook);
  }

  async createWebhook(body: CreateWebhookBody, actor: Actor): Promise<Webhook & { secret: string }> {
    const w: WebhookRecord = {
      id: newId('whk'),
      name: body.name.trim(),
      url: await checkedWebhookUrl(body.url),
      format: body.format ?? 'generic',
      chatId: body.chatId ?? null,
      minPriority: (body.minPriority ?? DEFAULT_WEBHOOK_MIN_PRIORITY) as AlarmPriority,
      secret: randomBytes(32).toString('base64url'),
      enabled: body.enabled ?? true,
      createdAtMs: Date.now(),
    };
    if (w.format === 'telegram' && !w.chatId) throw unprocessable('WEBHOOK_CHAT_ID_REQUIRED');
    await this.d.repo.insertWebhook(w);
    await this.d.directory.reload();
    await this.record('webhook.created', w.id, actor, { name: w.name, format: w.format });
    return { ...toWebhook(w), secret: w.secret };
  }

  async updateWebhook(id: string, body: UpdateWebhookBody, actor: Actor): Promise<Webhook> {
    const current = this.d.directory.webhook(id);
    if (!current) throw notFound('WEBHOOK_NOT_FOUND');
    const next: WebhookRecord = {
      ...current,
      ...(body.name !== undefined ? { name: body.name.trim() } : {}),
      ...(body.url !== undefined ? { url: await checkedWebhookUrl(body.url) } : {}),
      ...(body.format !== undefined ? { format: body.format } : {}),
      ...(body.chatId !== undefined ? { chatId: body.chatId } : {}),
      ...(body.minPriority !== undefined ? { minPriority: body.minPriority as AlarmPriority } : {}),
      ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
    };
    if (next.format === 'telegram' && !next.chatId) throw unprocessable('WEBHOOK_CHAT_ID_REQUIRED');
    await this.d.repo.updateWebhook(next);
    await this.d.directory.reload();
    await this.record('webhook.updated', id, actor, { fields: Object.keys(body) });
    return toWebhook(next);
  }

  async deleteWebhook(id: string, actor: Actor): Promise<void> {
    if (!this.d.directory.webhook(id)) throw notFound('WEBHOOK_NOT_FOUND');
    await this.d.repo.deleteWebhook(id);
    // The escalation policy forgets it too: a policy naming a webhook that is gone could not be saved again.
    const policy = this.d.directory.escalation();
    if (policy.webhookIds.includes(id)) await this.d.repo.putEscalation({ ...policy, webhookIds: policy.webhookIds.filter((w) => w !== id) });
    await this.d.directory.reload();
    await this.record('webhook.deleted', id, actor);
  }

  async testWebhook(user: UserRecord, id: string): Promise<{ queued: number }> {
    if (!this.d.directory.webhook(id)) throw notFound('WEBHOOK_NOT_FOUND');
    return { queued: await this.writeTests(user, [{ recipientKind: 'webhook', recipientId: id, channel: 'webhook', target: null }]) };
  }

  // --- escalation (admin) --------------------------------------------------------------------

  escalation(): EscalationPolicy {
    return this.d.directory.escalation();
  }

  async saveEscalation(policy: EscalationPolicy, actor: Actor): Promise<EscalationPolicy> {
    if (policy.userIds.some((id) => !this.d.directory.user(id)) || policy.webhookIds.some((id) => !this.d.directory.webhook(id))) {
      throw unprocessable('ESCALATION_TARGET_UNKNOWN');
    }
    await this.d.repo.putEscalation(policy);
    await this.d.directory.reload();
    await this.record('escalation.updated', 'escalation', actor, { ...policy });
    return policy;
  }

  /**
   * Writes the escalation round due for each open alarm still waiting for an acknowledgement;
   * a round already written adds nothing (its unique key), across restarts too.
   */
  async escalate(open: AlarmRecord[], nowMs = Date.now()): Promise<number> {
    const policy = this.d.directory.escalation();
    const targets = this.d.directory.escalationTargets();
    if (targets.length === 0) return 0;
    const entries: OutboxEntry[] = [];
    for (const alarm of open) {
      if (alarm.state !== 'unack' || alarm.priority > policy.maxPriority) continue;
      const round = escalationRoundDue(policy, alarm.raisedAtMs, nowMs);
      if (round === 0) continue;
      const content = alarmNotification('escalated', this.d.notices.facts(alarm, alarm.raisedAtMs), this.d.link());
      for (const t of targets) entries.push({ ...t, cause: `esc:${alarm.id}:${round}`, alarmId: alarm.id, event: 'escalated', content, createdAtMs: Date.now() });
    }
    if (entries.length === 0) return 0;
    const added = await this.d.store.writeOutbox(entries);
    if (added > 0) this.d.written();
    return added;
  }

  /**
   * A report run's e-mail (docs/reports.md): to each recipient — a user with an address who is
   * active, or an address — once per run and recipient (the outbox key), so that writing it again
   * after a crash adds nothing. Nothing without an SMTP server. Returns how many were new.
   */
  async writeReportMail(runId: string, recipients: readonly string[], content: NotificationContent): Promise<number> {
    if (!this.d.directory.channels.email) return 0;
    const targets: OutboxTarget[] = [];
    for (const recipient of recipients) {
      if (isEmailAddress(recipient)) {
        targets.push({ recipientKind: 'address', recipientId: recipient.toLowerCase(), channel: 'email', target: null });
        continue;
      }
      const user = this.d.directory.user(recipient);
      if (user && user.status === 'active' && user.email) targets.push({ recipientKind: 'user', recipientId: user.id, channel: 'email', target: null });
    }
    if (targets.length === 0) return 0;
    const now = Date.now();
    const added = await this.d.store.writeOutbox(targets.map((t) => ({ ...t, cause: `report:${runId}`, alarmId: null, event: 'report', content, createdAtMs: now })));
    if (added > 0) this.d.written();
    return added;
  }

  // --- the delivery log ----------------------------------------------------------------------

  async page(q: Parameters<NotificationsRepository['page']>[0]): Promise<DeliveryRecord[]> {
    return this.d.repo.page(q);
  }

  /** How many notifications wait to be sent on each channel. */
  pendingByChannel(): ReturnType<NotificationsRepository['pendingByChannel']> {
    return this.d.repo.pendingByChannel();
  }

  toDelivery(r: DeliveryRecord): Delivery {
    const label =
      r.recipientKind === 'webhook'
        ? (this.d.directory.webhook(r.recipientId)?.name ?? r.recipientId)
        : r.recipientKind === 'address'
          ? r.recipientId
          : (this.d.directory.user(r.recipientId)?.username ?? r.recipientId);
    return {
      id: r.id,
      event: r.event,
      channel: r.channel,
      recipient: { kind: r.recipientKind, id: r.recipientId, label },
      alarmId: r.alarmId,
      title: r.content.title,
      state: r.state,
      attempts: r.attempts,
      lastError: r.lastError,
      createdAt: iso(r.createdAtMs)!,
      sentAt: iso(r.sentAtMs),
      nextAttemptAt: r.state === 'pending' ? iso(r.nextAttemptMs) : null,
    };
  }

  /** The message of a delivery, as its channel sends it. */
  messageOf(r: DeliveryRecord): Message {
    return { deliveryId: r.id, content: r.content };
  }

  /**
   * Writes an 'Enviar prueba', if the user has a test send left: a few a minute per user, across
   * channels, so that tests cannot be a way to make the server send in bulk (429 with Retry-After).
   */
  private async writeTests(user: UserRecord, targets: OutboxTarget[]): Promise<number> {
    const waitMs = this.testSends.take(user.id);
    if (waitMs > 0) throw new AppError(429, 'TEST_SEND_RATE_LIMITED', undefined, { 'retry-after': String(Math.ceil(waitMs / 1000)) });
    const now = Date.now();
    const content = testNotification(this.d.link(), now);
    const cause = `test:${newId('tst')}`;
    const added = await this.d.store.writeOutbox(targets.map((t) => ({ ...t, cause, alarmId: null, event: 'test', content, createdAtMs: now })));
    this.d.written();
    return added;
  }

  private record(action: 'webhook.created' | 'webhook.updated' | 'webhook.deleted' | 'escalation.updated', target: string, actor: Actor, details: Record<string, unknown> = {}) {
    return this.d.audit.record({ action, userId: actor.user.id, username: actor.user.username, target: target === 'escalation' ? 'notifications:escalation' : `webhook:${target}`, result: 'ok', ip: actor.ip, details });
  }
}

function safeUrl(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/** A webhook's URL: http(s) with a host and no credentials, never link-local or a cloud's metadata address. */
async function checkedWebhookUrl(raw: string): Promise<string> {
  const url = safeUrl(raw.trim());
  if (!url || !['http:', 'https:'].includes(url.protocol) || !url.hostname || url.username || url.password) throw unprocessable('WEBHOOK_URL_INVALID');
  if (!(await destinationAllowed(url, WEBHOOK_POLICY))) throw unprocessable('WEBHOOK_URL_NOT_ALLOWED');
  return url.toString();
}
