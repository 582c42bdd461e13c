import type { NotificationContent } from '@agua/shared';

/**
 * A failed attempt whose message is ours, in words fit for the delivery log as they are: no
 * socket error, address or TLS detail (docs/security.md "Outbound requests").
 */
export class DeliveryError extends Error {}

/** A refusal that a retry cannot fix (the recipient is gone): the notification is given up at once. */
export class PermanentDeliveryError extends DeliveryError {}

/** The attempt did not end within its deadline: connect, send and answer, all together. */
export class DeadlineError extends DeliveryError {
  constructor() {
    super('sin respuesta en el plazo');
  }
}

/** The destination is one this channel may not send to; it will not become one by retrying. */
export class DestinationRefusedError extends PermanentDeliveryError {
  constructor() {
    super('destino no permitido');
  }
}

/** A receiver answered, but not 2xx. */
export const answerError = (status: number) => new DeliveryError(`el receptor respondió HTTP ${status}`);

/** One notification to one address, with the id receivers can recognize a repeat by. */
export interface Message {
  deliveryId: string;
  content: NotificationContent;
  /** Files an e-mail carries (a report's), read when it is sent. */
  attachments?: Attachment[];
}

export interface Attachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
}
