import webpush from 'web-push';
import { notificationText } from '@agua/shared';
import type { PushSubscriptionRecord } from '../notifications.repository';
import { answerError, PermanentDeliveryError, type Message } from './channel';
import type { HttpPoster } from './http-post';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** A push service's answer that the subscription is over: the browser unsubscribed or expired. */
export class SubscriptionGoneError extends PermanentDeliveryError {}

/**
 * Web Push (RFC 8030/8291/8292): the payload is encrypted for the browser's keys and signed with
 * our VAPID keys by web-push; the request itself is ours (the poster: public push services only,
 * within the deadline).
 */
export class PushChannel {
  constructor(
    private readonly keys: VapidKeys,
    private readonly subject: string,
    private readonly poster: HttpPoster,
  ) {}

  async send(subscription: PushSubscriptionRecord | undefined, { deliveryId, content: c }: Message): Promise<void> {
    if (!subscription) throw new PermanentDeliveryError('este navegador ya no tiene push activado');
    const payload = JSON.stringify({
      id: deliveryId,
      title: c.title,
      body: notificationText({ ...c, title: '' }).trim(),
      tag: c.alarmId ?? deliveryId,
      alarmId: c.alarmId,
      event: c.event,
      link: c.link,
      priority: c.priority,
    });
    const req = webpush.generateRequestDetails({ endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } }, payload, {
      vapidDetails: { subject: this.subject, publicKey: this.keys.publicKey, privateKey: this.keys.privateKey },
      TTL: 24 * 3600,
      urgency: c.priority === 1 ? 'high' : 'normal',
      contentEncoding: 'aes128gcm',
    });
    const status = await this.poster.post(req.endpoint, req.headers as Record<string, string>, req.body);
    if (status === 404 || status === 410) throw new SubscriptionGoneError(`el servicio push dice que la suscripción terminó (HTTP ${status})`);
    if (status < 200 || status > 299) throw answerError(status);
  }
}

export function generateVapidKeys(): VapidKeys {
  return webpush.generateVAPIDKeys();
}
