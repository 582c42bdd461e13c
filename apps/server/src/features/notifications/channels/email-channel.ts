import nodemailer, { type Transporter } from 'nodemailer';
import { notificationText, type NotificationContent } from '@agua/shared';
import type { UserRecord } from '../../users/users.repository';
import { ATTEMPT_TIMEOUT_MS, PermanentDeliveryError, type Message } from './channel';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** Simple HTML beside the plain text: the title, the lines, the link. */
export function emailHtml(c: NotificationContent): string {
  const lines = c.lines.map((l) => `<p style="margin:0 0 4px">${escapeHtml(l)}</p>`).join('');
  const link = c.link ? `<p style="margin:12px 0 0"><a href="${escapeHtml(c.link)}">Abrir Alarmas</a></p>` : '';
  return `<div style="font-family:sans-serif;font-size:14px"><h2 style="font-size:16px;margin:0 0 8px">${escapeHtml(c.title)}</h2>${lines}${link}</div>`;
}

/** E-mail over SMTP (SMTP_URL, SMTP_FROM), one transport for the server's life. */
export class EmailChannel {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    const url = new URL(smtpUrl);
    // A pool of a few connections: a flood of alarms is not a TCP and SMTP handshake per e-mail.
    const defaults = { connectionTimeout: ATTEMPT_TIMEOUT_MS, greetingTimeout: ATTEMPT_TIMEOUT_MS, socketTimeout: ATTEMPT_TIMEOUT_MS, pool: true, maxConnections: 4 };
    for (const [name, value] of Object.entries(defaults)) {
      if (!url.searchParams.has(name)) url.searchParams.set(name, String(value));
    }
    this.transport = nodemailer.createTransport(url.toString());
  }

  async send(user: UserRecord | undefined, { deliveryId, content }: Message): Promise<void> {
    if (!user || user.status !== 'active' || !user.email) throw new PermanentDeliveryError('el usuario ya no existe, está inactivo o no tiene correo');
    await this.transport.sendMail({
      from: this.from,
      to: user.email,
      subject: content.title,
      text: content.link ? `${notificationText(content)}\n\n${content.link}` : notificationText(content),
      html: emailHtml(content),
      // The same id on a repeat after a crash: mail systems can tell it is one message.
      messageId: `<${deliveryId}@agua.notificaciones>`,
      headers: { 'X-Agua-Delivery': deliveryId },
    });
  }

  close(): void {
    this.transport.close();
  }
}
