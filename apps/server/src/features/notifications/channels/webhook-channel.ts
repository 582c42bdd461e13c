import { createHmac } from 'node:crypto';
import { ALARM_PRIORITY_LABELS, notificationText } from '@agua/shared';
import type { WebhookRecord } from '../notifications.repository';
import { answerError, PermanentDeliveryError, type Message } from './channel';
import type { HttpPoster } from './http-post';

/** `X-Agua-Signature`: `sha256=` + hex HMAC-SHA256 of the raw body, keyed with the secret's UTF-8 bytes. */
export function signature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex')}`;
}

/**
 * Text for Slack's mrkdwn: `&`, `<` and `>` escaped, Slack's own rule, so that text from a device
 * or a person (a command's message, a device name) is shown as it is — never an @channel ping
 * (`<!channel>`), a mention or a link of its choosing (`<https://…|Abrir Alarmas>`).
 */
export const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The body in the webhook's format: ours, or one Slack's or Telegram's API takes as it is. */
export function webhookBody(webhook: Pick<WebhookRecord, 'format' | 'chatId'>, { deliveryId, content: c }: Message, sentAtMs: number): string {
  const text = notificationText(c);
  switch (webhook.format) {
    case 'slack': {
      // Every text escaped; the one link is ours (PUBLIC_URL), the only markup in the message.
      const lines = [`*${slackEscape(c.title)}*`, ...c.lines.map(slackEscape)];
      if (c.link) lines.push(`<${slackEscape(c.link)}|Abrir Alarmas>`);
      return JSON.stringify({ text: lines.join('\n') });
    }
    case 'telegram':
      // No parse_mode: Telegram shows the text as plain text, markup of any kind included.
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
export async function sendWebhook(poster: HttpPoster, webhook: WebhookRecord | undefined, message: Message): Promise<void> {
  if (!webhook) throw new PermanentDeliveryError('el webhook ya no existe');
  const body = webhookBody(webhook, message, Date.now());
  const status = await poster.post(
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
  if (status < 200 || status > 299) throw answerError(status);
}
