import type { NotificationContent } from '@agua/shared';

/** A refusal that a retry cannot fix (the recipient is gone): the notification is given up at once. */
export class PermanentDeliveryError extends Error {}

/** One notification to one address, with the id receivers can recognize a repeat by. */
export interface Message {
  deliveryId: string;
  content: NotificationContent;
}

/** How long one attempt may take: a receiver that never answers costs a slot, never the server. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
