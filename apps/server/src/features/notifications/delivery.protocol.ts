import type { NotificationChannel } from '@agua/shared';
import type { Message } from './channels/channel';
import type { VapidKeys } from './channels/push-channel';
import type { PushSubscriptionRecord, WebhookRecord } from './notifications.repository';

/** The delivery thread's start parameters: the channels' configuration. */
export interface DeliveryThreadData {
  smtpUrl: string | null;
  smtpFrom: string;
  vapid: VapidKeys;
  vapidSubject: string;
  /** Every attempt ends within this (NOTIFICATION_DEADLINE_MS). */
  deadlineMs: number;
  /** Push endpoints on loopback and private addresses allowed (PUSH_ALLOW_PRIVATE, tests only). */
  pushAllowPrivate: boolean;
}

/** Whom a delivery goes to, as the main thread knows them now (null: gone). */
export type Recipient =
  | { channel: 'email'; user: { email: string; active: boolean } | null }
  | { channel: 'webhook'; webhook: WebhookRecord | null }
  | { channel: 'push'; subscription: PushSubscriptionRecord | null };

export type DeliveryRequest = { id: number; op: 'send'; recipient: Recipient; messages: Message[] } | { id: number; op: 'close' };

/** Why an attempt failed, so the sender can tell a retry from giving up. */
export type FailureKind = 'retry' | 'permanent' | 'gone';

/**
 * `error`: the delivery log's words for the failure (attemptReason); `detail`: the raw error, for
 * the server's log only.
 */
export type DeliveryResponse = { id: number; ok: true } | { id: number; ok: false; error: string; detail: string; kind: FailureKind };

export type { NotificationChannel };
