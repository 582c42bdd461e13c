import type { AlarmPriority } from '../alarms/alarm-rules';

/** How a notification travels (docs/alarms.md "Notifications"). */
export const NOTIFICATION_CHANNELS = ['email', 'push', 'webhook'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** Bodies a webhook can be sent as: our JSON, or one Slack or Telegram accepts as it is. */
export const WEBHOOK_FORMATS = ['generic', 'slack', 'telegram'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/** Why a notification is sent. */
export const NOTIFICATION_EVENTS = ['raised', 'cleared', 'escalated', 'test', 'report'] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/** Whom a notification goes to: a user, a webhook, or an e-mail address a report names (docs/reports.md). */
export const RECIPIENT_KINDS = ['user', 'webhook', 'address'] as const;
export type RecipientKind = (typeof RECIPIENT_KINDS)[number];

/** A delivery's life: waiting (first try or a retry), sent, or given up after the retry window. */
export const DELIVERY_STATES = ['pending', 'sent', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** Defaults: e-mail and push for priorities 1–2; a webhook from priority 2 up. */
export const DEFAULT_USER_MIN_PRIORITY: AlarmPriority = 2;
export const DEFAULT_WEBHOOK_MIN_PRIORITY: AlarmPriority = 2;

/** The escalation policy: alarms of priority ≤ maxPriority still `unack` after afterMin minutes. */
export interface EscalationPolicy {
  maxPriority: AlarmPriority;
  afterMin: number;
  /** Minutes between repeats until acknowledged; null = no repeat. */
  repeatMin: number | null;
  userIds: string[];
  webhookIds: string[];
}

export const DEFAULT_ESCALATION: EscalationPolicy = { maxPriority: 2, afterMin: 10, repeatMin: null, userIds: [], webhookIds: [] };
export const ESCALATION_LIMITS = { minutesMax: 1440, targetsMax: 50 } as const;

/** Retries: exponential from 1 s, at most 15 min apart, given up 24 h after the notification was written. */
export const DELIVERY_RETRY = { firstMs: 1_000, maxMs: 15 * 60_000, giveUpAfterMs: 24 * 3600_000 } as const;

/** Wait before the attempt after `attempts` failed ones (1 s, 2 s, 4 s … 15 min). */
export function retryDelayMs(attempts: number): number {
  return Math.min(DELIVERY_RETRY.maxMs, DELIVERY_RETRY.firstMs * 2 ** Math.max(0, attempts - 1));
}

/** Whether an alarm of `priority` reaches someone whose lowest priority is `minPriority` (null = off). */
export function reaches(priority: AlarmPriority, minPriority: AlarmPriority | null): boolean {
  return minPriority !== null && priority <= minPriority;
}

/**
 * The escalation round due at `nowMs` for an alarm raised at `raisedAtMs` (1 = the first
 * escalation, 2 = the first repeat…), or 0 before the first one.
 */
export function escalationRoundDue(policy: EscalationPolicy, raisedAtMs: number, nowMs: number): number {
  const first = raisedAtMs + policy.afterMin * 60_000;
  if (nowMs < first) return 0;
  if (policy.repeatMin === null) return 1;
  return 1 + Math.floor((nowMs - first) / (policy.repeatMin * 60_000));
}

/** `https://scada.example/agua/` → `https://scada.example/agua/alarms` (PUBLIC_URL as a base URL). */
export function alarmsLink(publicUrl: string): string {
  return new URL('alarms', publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`).toString();
}
