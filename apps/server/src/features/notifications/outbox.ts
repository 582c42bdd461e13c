import type { NotificationChannel, NotificationContent, NotificationEvent, RecipientKind } from '@agua/shared';

/** Who a notification is for: a user (e-mail, or push to one of the user's browsers) or a webhook. */
export interface OutboxTarget {
  recipientKind: RecipientKind;
  recipientId: string;
  channel: NotificationChannel;
  /** The push subscription, for push; null otherwise. */
  target: string | null;
}

/** A notification to write: its cause (the dedupe prefix), whom and what. */
export interface OutboxEntry extends OutboxTarget {
  /** Prefix of the unique key, e.g. `esc:<alarm>:<round>`; completed with the target. Also the key of its content. */
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

/** The outcome of one attempt (`row`: the outbox row). */
export type DeliveryOutcome =
  | { row: number; ok: true; atMs: number }
  /** `retryAtMs` null: given up (a permanent refusal, or the retry window is over). */
  | { row: number; ok: false; error: string; retryAtMs: number | null };

/** A claim of a row for an attempt: due again at retryAtMs should the attempt never end. */
export interface OutboxClaim {
  row: number;
  retryAtMs: number;
}

/** The public id of a notification (X-Agua-Delivery, the delivery log) from its outbox row. */
export const deliveryId = (row: number) => `ntf_${row}`;

