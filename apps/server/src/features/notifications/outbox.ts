import type { NotificationChannel, NotificationContent, NotificationEvent } from '@agua/shared';

/** Who a notification is for: a user (e-mail, or push to one of the user's browsers) or a webhook. */
export interface OutboxTarget {
  recipientKind: 'user' | 'webhook';
  recipientId: string;
  channel: NotificationChannel;
  /** The push subscription, for push; null otherwise. */
  target: string | null;
}

/** A notification to write: its cause (the dedupe prefix), whom and what. */
export interface OutboxEntry extends OutboxTarget {
  id: string;
  /** Prefix of the unique key, e.g. `esc:<alarm>:<round>`; completed with the target. */
  cause: string;
  alarmId: string | null;
  event: NotificationEvent;
  content: NotificationContent;
  createdAtMs: number;
}

/**
 * What an alarm change tells people, written in the change's own transaction: to these targets
 * (a raise), or to everyone told of the alarm before (a return to normal).
 */
export type AlarmNotice = { event: 'raised'; targets: OutboxTarget[]; content: NotificationContent } | { event: 'cleared'; content: NotificationContent };

/** The outcome of one attempt. */
export type DeliveryOutcome =
  | { id: string; ok: true; atMs: number }
  /** `retryAtMs` null: given up (a permanent refusal, or the retry window is over). */
  | { id: string; ok: false; error: string; retryAtMs: number | null };

/** The unique key of a notification: one per cause, recipient, channel and target. */
export const dedupeKey = (cause: string, t: OutboxTarget) => `${cause}:${t.recipientKind}:${t.recipientId}:${t.channel}:${t.target ?? ''}`;
