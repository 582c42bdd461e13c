import { DEFAULT_ESCALATION, DEFAULT_USER_MIN_PRIORITY, DEFAULT_WEBHOOK_MIN_PRIORITY, reaches, type AlarmPriority, type EscalationPolicy } from '@agua/shared';
import type { UserRecord } from '../users/users.repository';
import type { NotificationsRepository, PreferencesRecord, PushSubscriptionRecord, WebhookRecord } from './notifications.repository';
import type { OutboxTarget } from './outbox';

/** What the server can send on: e-mail needs SMTP, push needs PUBLIC_URL (docs/alarms.md "Content"). */
export interface ChannelAvailability {
  email: boolean;
  push: boolean;
}

/**
 * Who is told what, in memory, so that an alarm batch plans its notifications without a query:
 * users (active, with their choices), their push subscriptions, webhooks and the escalation
 * policy. Reloaded after every change of these, and now and then for changes of users.
 */
export class NotificationDirectory {
  private users: UserRecord[] = [];
  private prefs = new Map<string, PreferencesRecord>();
  private subscriptions: PushSubscriptionRecord[] = [];
  private webhookList: WebhookRecord[] = [];
  private policy: EscalationPolicy = DEFAULT_ESCALATION;

  constructor(
    private readonly repo: NotificationsRepository,
    private readonly listUsers: () => Promise<UserRecord[]>,
    readonly channels: ChannelAvailability,
  ) {}

  async reload(): Promise<void> {
    const [users, prefs, subscriptions, webhooks, policy] = await Promise.all([
      this.listUsers(),
      this.repo.listPreferences(),
      this.repo.listPushSubscriptions(),
      this.repo.listWebhooks(),
      this.repo.getEscalation(),
    ]);
    this.users = users;
    this.prefs = new Map(prefs.map((p) => [p.userId, p]));
    this.subscriptions = subscriptions;
    this.webhookList = webhooks;
    this.policy = policy ?? DEFAULT_ESCALATION;
  }

  /** A user's choices (the defaults until they choose). */
  preferencesOf(userId: string): PreferencesRecord {
    return this.prefs.get(userId) ?? { userId, emailMinPriority: DEFAULT_USER_MIN_PRIORITY, pushMinPriority: DEFAULT_USER_MIN_PRIORITY };
  }

  user(id: string): UserRecord | undefined {
    return this.users.find((u) => u.id === id);
  }

  webhook(id: string): WebhookRecord | undefined {
    return this.webhookList.find((w) => w.id === id);
  }

  webhooks(): WebhookRecord[] {
    return this.webhookList;
  }

  subscription(id: string): PushSubscriptionRecord | undefined {
    return this.subscriptions.find((s) => s.id === id);
  }

  subscriptionsOf(userId: string): PushSubscriptionRecord[] {
    return this.subscriptions.filter((s) => s.userId === userId);
  }

  escalation(): EscalationPolicy {
    return this.policy;
  }

  /** Everyone an alarm of this priority reaches when it is raised. */
  raisedTargets(priority: AlarmPriority): OutboxTarget[] {
    const targets: OutboxTarget[] = [];
    for (const user of this.users) {
      if (user.status !== 'active') continue;
      const p = this.preferencesOf(user.id);
      if (this.channels.email && user.email && reaches(priority, p.emailMinPriority)) targets.push(this.userTarget(user.id, 'email'));
      if (this.channels.push && reaches(priority, p.pushMinPriority)) targets.push(...this.pushTargets(user.id));
    }
    for (const w of this.webhookList) if (w.enabled && reaches(priority, w.minPriority ?? DEFAULT_WEBHOOK_MIN_PRIORITY)) targets.push(webhookTarget(w.id));
    return targets;
  }

  /** The escalation policy's people (every channel they can be reached on) and webhooks. */
  escalationTargets(): OutboxTarget[] {
    const targets: OutboxTarget[] = [];
    for (const id of this.policy.userIds) {
      const user = this.user(id);
      if (!user || user.status !== 'active') continue;
      if (this.channels.email && user.email) targets.push(this.userTarget(id, 'email'));
      if (this.channels.push) targets.push(...this.pushTargets(id));
    }
    for (const id of this.policy.webhookIds) if (this.webhook(id)?.enabled) targets.push(webhookTarget(id));
    return targets;
  }

  pushTargets(userId: string): OutboxTarget[] {
    return this.subscriptionsOf(userId).map((s) => ({ recipientKind: 'user', recipientId: userId, channel: 'push', target: s.id }));
  }

  private userTarget(userId: string, channel: 'email'): OutboxTarget {
    return { recipientKind: 'user', recipientId: userId, channel, target: null };
  }
}

const webhookTarget = (id: string): OutboxTarget => ({ recipientKind: 'webhook', recipientId: id, channel: 'webhook', target: null });
