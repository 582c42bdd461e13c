import { createHmac } from 'node:crypto';
import { ALARM_PRIORITY_LABELS, notificationText } from '@agua/shared';
import type { WebhookRecord } from '../notifications.repository';
import { PermanentDeliveryError, type Message } from './channel';
import { httpPost } from './http-post';

/** `X-Agua-Signature`: `sha256=` + hex HMAC-SHA256 of the raw body, keyed with the secret's UTF-8 bytes. */
export function signature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex')}`;
}

/** The body in the webhook's format: ours, or one Slack's or Telegram's API takes as it is. */
export function webhookBody(webhook: Pick<WebhookRecord, 'format' | 'chatId'>, { deliveryId, content: c }: Message, sentAtMs: number): string {
  const text = notificationText(c);
  switch (webhook.format) {
    case 'slack':
      return JSON.stringify({ text: c.link ? `*${c.title}*\n${c.lines.join('\n')}\n<${c.link}|Abrir Alarmas>` : `*${c.title}*\n${c.lines.join('\n')}` });
    case 'telegram':
      return JSON.stringify({ chat_id: webhook.chatId, text, disable_web_page_preview: true });
    case 'generic':
      return JSON.stringify({
        id: deliveryId,
        event: c.event,
        title: c.title,
        text,
        priority: c.priority,
        priorityLabel: c.priority === null ? null : ALARM_PRIORITY_LABELS[c.priority],
        alarmId: c.alarmId,
        deviceId: c.deviceId,
        link: c.link,
        sentAt: new Date(sentAtMs).toISOString(),
      });
  }
}

/** POSTs a notification to a webhook, signed; any answer but 2xx is a failed attempt. */
export async function sendWebhook(webhook: WebhookRecord | undefined, message: Message): Promise<void> {
  if (!webhook) throw new PermanentDeliveryError('el webhook ya no existe');
  const body = webhookBody(webhook, message, Date.now());
  const status = await httpPost(
    webhook.url,
    {
      'content-type': 'application/json',
      'user-agent': 'PanelDeControlDeAgua/1',
      'x-agua-signature': signature(webhook.secret, body),
      'x-agua-delivery': message.deliveryId,
      'x-agua-event': message.content.event,
    },
    body,
  );
  if (status < 200 || status > 299) throw new Error(`HTTP ${status}`);
}
