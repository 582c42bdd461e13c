import type { Kysely, Selectable } from 'kysely';
import type { AlarmPriority, DeliveryState, EscalationPolicy, NotificationChannel, NotificationContent, NotificationEvent, RecipientKind, WebhookFormat } from '@agua/shared';
import type { Database, NotificationOutboxTable, WebhooksTable } from '../../storage/schema';
import { deliveryId } from './outbox';

export interface PreferencesRecord {
  userId: string;
  emailMinPriority: AlarmPriority | null;
  pushMinPriority: AlarmPriority | null;
}

export interface WebhookRecord {
  id: string;
  name: string;
  url: string;
  format: WebhookFormat;
  chatId: string | null;
  minPriority: AlarmPriority;
  secret: string;
  enabled: boolean;
  createdAtMs: number;
}

export interface PushSubscriptionRecord {
  id: string;
  userId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  createdAtMs: number;
}

export interface DeliveryRecord {
  /** The outbox row. */
  row: number;
  /** Its public id (deliveryId(row)). */
  id: string;
  alarmId: string | null;
  event: NotificationEvent;
  channel: NotificationChannel;
  recipientKind: RecipientKind;
  recipientId: string;
  target: string | null;
  content: NotificationContent;
  state: DeliveryState;
  attempts: number;
  nextAttemptMs: number | null;
  lastError: string | null;
  createdAtMs: number;
  sentAtMs: number | null;
}

const ESCALATION_KEY = 'notification_escalation';

const toWebhook = (r: Selectable<WebhooksTable>): WebhookRecord => ({
  id: r.id,
  name: r.name,
  url: r.url,
  format: r.format as WebhookFormat,
  chatId: r.chat_id,
  minPriority: r.min_priority as AlarmPriority,
  secret: r.secret,
  enabled: r.enabled === 1,
  createdAtMs: Number(r.created_at_ms),
});

const toDelivery = (r: Selectable<NotificationOutboxTable> & { content_json: string }): DeliveryRecord => ({
  row: r.id,
  id: deliveryId(r.id),
  alarmId: r.alarm_id,
  event: r.event as NotificationEvent,
  channel: r.channel as NotificationChannel,
  recipientKind: r.recipient_kind as RecipientKind,
  recipientId: r.recipient_id,
  target: r.target,
  content: JSON.parse(r.content_json) as NotificationContent,
  state: r.state as DeliveryState,
  attempts: r.attempts,
  nextAttemptMs: r.next_attempt_ms === null ? null : Number(r.next_attempt_ms),
  lastError: r.last_error,
  createdAtMs: Number(r.created_at_ms),
  sentAtMs: r.sent_at_ms === null ? null : Number(r.sent_at_ms),
});

/**
 * Who wants what, and the outbox as read by the senders and the delivery log. The outbox is
 * written only by the ingest store (storage/ingest).
 */
export class NotificationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async listPreferences(): Promise<PreferencesRecord[]> {
    const rows = await this.db.selectFrom('notification_preferences').selectAll().execute();
    return rows.map((r) => ({ userId: r.user_id, emailMinPriority: r.email_min_priority as AlarmPriority | null, pushMinPriority: r.push_min_priority as AlarmPriority | null }));
  }

  async savePreferences(p: PreferencesRecord): Promise<void> {
    const values = { email_min_priority: p.emailMinPriority, push_min_priority: p.pushMinPriority, updated_at_ms: Date.now() };
    await this.db
      .insertInto('notification_preferences')
      .values({ user_id: p.userId, ...values })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
      .execute();
  }

  async listWebhooks(): Promise<WebhookRecord[]> {
    return (await this.db.selectFrom('webhooks').selectAll().orderBy('created_at_ms').execute()).map(toWebhook);
  }

  async insertWebhook(w: WebhookRecord): Promise<void> {
    await this.db
      .insertInto('webhooks')
      .values({ id: w.id, name: w.name, url: w.url, format: w.format, chat_id: w.chatId, min_priority: w.minPriority, secret: w.secret, enabled: w.enabled ? 1 : 0, created_at_ms: w.createdAtMs })
      .execute();
  }

  async updateWebhook(w: WebhookRecord): Promise<void> {
    await this.db
      .updateTable('webhooks')
      .set({ name: w.name, url: w.url, format: w.format, chat_id: w.chatId, min_priority: w.minPriority, enabled: w.enabled ? 1 : 0 })
      .where('id', '=', w.id)
      .execute();
  }

  async deleteWebhook(id: string): Promise<void> {
    await this.db.deleteFrom('webhooks').where('id', '=', id).execute();
  }

  async listPushSubscriptions(): Promise<PushSubscriptionRecord[]> {
    const rows = await this.db.selectFrom('push_subscriptions').selectAll().execute();
    return rows.map((r) => ({ id: r.id, userId: r.user_id, endpoint: r.endpoint, p256dh: r.p256dh, auth: r.auth, createdAtMs: Number(r.created_at_ms) }));
  }

  /**
   * A browser's subscription, for its user only: the same endpoint again from the same user
   * replaces its keys (they rotate) and counts as subscribed now; an endpoint another user holds
   * is left alone (false). Then the user keeps the `keep` subscribed most recently, this one
   * among them.
   */
  async savePushSubscription(s: PushSubscriptionRecord, keep: number): Promise<boolean> {
    const saved = await this.db
      .insertInto('push_subscriptions')
      .values({ id: s.id, user_id: s.userId, endpoint: s.endpoint, p256dh: s.p256dh, auth: s.auth, created_at_ms: s.createdAtMs })
      .onConflict((oc) =>
        oc
          .column('endpoint')
          .doUpdateSet({ p256dh: s.p256dh, auth: s.auth, created_at_ms: s.createdAtMs })
          .where('push_subscriptions.user_id', '=', s.userId),
      )
      .executeTakeFirst();
    if (Number(saved.numInsertedOrUpdatedRows ?? 0) === 0) return false;
    const newestOthers = this.db
      .selectFrom('push_subscriptions')
      .select('id')
      .where('user_id', '=', s.userId)
      .where('endpoint', '<>', s.endpoint)
      .orderBy('created_at_ms', 'desc')
      .orderBy('id', 'desc')
      .limit(keep - 1);
    await this.db.deleteFrom('push_subscriptions').where('user_id', '=', s.userId).where('endpoint', '<>', s.endpoint).where('id', 'not in', newestOthers).execute();
    return true;
  }

  async deletePushSubscription(where: { id: string } | { userId: string; endpoint: string }): Promise<number> {
    let q = this.db.deleteFrom('push_subscriptions');
    q = 'id' in where ? q.where('id', '=', where.id) : q.where('user_id', '=', where.userId).where('endpoint', '=', where.endpoint);
    const res = await q.executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  async getEscalation(): Promise<EscalationPolicy | null> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', ESCALATION_KEY).executeTakeFirst();
    return row ? (JSON.parse(row.value) as EscalationPolicy) : null;
  }

  async putEscalation(policy: EscalationPolicy): Promise<void> {
    const value = JSON.stringify(policy);
    await this.db.insertInto('settings').values({ key: ESCALATION_KEY, value }).onConflict((oc) => oc.column('key').doUpdateSet({ value })).execute();
  }

  /** Pending notifications of a channel due by `nowMs`, oldest first, but for the rows in `skip`. */
  async due(channel: NotificationChannel, nowMs: number, limit: number, skip: number[] = []): Promise<DeliveryRecord[]> {
    let query = this.withContent().where('o.state', '=', 'pending').where('o.channel', '=', channel).where('o.next_attempt_ms', '<=', nowMs);
    if (skip.length > 0) query = query.where('o.id', 'not in', skip);
    return (await query.orderBy('o.next_attempt_ms').limit(limit).execute()).map(toDelivery);
  }

  /** How many notifications wait to be sent on each channel (the metrics' level). */
  async pendingByChannel(): Promise<Array<{ channel: NotificationChannel; count: number }>> {
    const rows = await this.db
      .selectFrom('notification_outbox')
      .select((eb) => ['channel', eb.fn.countAll<number>().as('n')])
      .where('state', '=', 'pending')
      .groupBy('channel')
      .execute();
    return rows.map((r) => ({ channel: r.channel as NotificationChannel, count: Number(r.n) }));
  }

  /** The delivery log: newest first, a page after the row `after`. */
  async page(q: { limit: number; after?: number; state?: DeliveryState; alarmId?: string }): Promise<DeliveryRecord[]> {
    let query = this.withContent();
    if (q.state) query = query.where('o.state', '=', q.state);
    if (q.alarmId) query = query.where('o.alarm_id', '=', q.alarmId);
    if (q.after !== undefined) query = query.where('o.id', '<', q.after);
    return (await query.orderBy('o.id', 'desc').limit(q.limit).execute()).map(toDelivery);
  }

  private withContent() {
    return this.db.selectFrom('notification_outbox as o').innerJoin('notification_contents as c', 'c.cause', 'o.cause').selectAll('o').select('c.content_json');
  }
}
