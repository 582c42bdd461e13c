// The notifications' delivery thread: the network work of sending (SMTP, webhooks, Web Push) runs
// here, so an alarm flood's thousands of requests never take the event loop that answers the
// devices (ADR 010). The main thread decides what to send and records the outcome.
import { parentPort, workerData } from 'node:worker_threads';
import { attemptDetail, attemptReason } from './channels/attempt-reason';
import { PermanentDeliveryError } from './channels/channel';
import { pushPolicy, WEBHOOK_POLICY } from './channels/destinations';
import { EmailChannel } from './channels/email-channel';
import { HttpPoster } from './channels/http-post';
import { PushChannel, SubscriptionGoneError } from './channels/push-channel';
import { sendWebhook } from './channels/webhook-channel';
import type { DeliveryRequest, DeliveryResponse, DeliveryThreadData, FailureKind } from './delivery.protocol';

const config = workerData as DeliveryThreadData;
const email = config.smtpUrl ? new EmailChannel(config.smtpUrl, config.smtpFrom, config.deadlineMs) : null;
// Push endpoints are chosen by any user, webhooks by admins: each under its own policy.
const pushPoster = new HttpPoster(pushPolicy(config.pushAllowPrivate), config.deadlineMs);
const webhookPoster = new HttpPoster(WEBHOOK_POLICY, config.deadlineMs);
const push = new PushChannel(config.vapid, config.vapidSubject, pushPoster);
const port = parentPort!;

async function send(req: Extract<DeliveryRequest, { op: 'send' }>): Promise<void> {
  const { recipient, messages } = req;
  switch (recipient.channel) {
    case 'email':
      if (!email) throw new PermanentDeliveryError('el servidor no tiene SMTP_URL');
      if (!recipient.user || !recipient.user.active || !recipient.user.email) throw new PermanentDeliveryError('el usuario ya no existe, está inactivo o no tiene correo');
      return email.send(recipient.user.email, messages);
    case 'webhook':
      return sendWebhook(webhookPoster, recipient.webhook ?? undefined, messages[0]!);
    case 'push':
      return push.send(recipient.subscription ?? undefined, messages[0]!);
  }
}

const kindOf = (err: unknown): FailureKind => (err instanceof SubscriptionGoneError ? 'gone' : err instanceof PermanentDeliveryError ? 'permanent' : 'retry');

port.on('message', (req: DeliveryRequest) => {
  if (req.op === 'close') {
    email?.close();
    pushPoster.close();
    webhookPoster.close();
    port.postMessage({ id: req.id, ok: true } satisfies DeliveryResponse);
    port.close();
    return;
  }
  send(req).then(
    () => port.postMessage({ id: req.id, ok: true } satisfies DeliveryResponse),
    (err: unknown) => port.postMessage({ id: req.id, ok: false, error: attemptReason(err), detail: attemptDetail(err), kind: kindOf(err) } satisfies DeliveryResponse),
  );
});
