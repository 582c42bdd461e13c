import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import { notificationText, type NotificationContent } from '@agua/shared';
import { DeadlineError, type Message } from './channel';

/** Notifications written out in full in a digest; the rest are counted (a flood's e-mail stays readable). */
const DIGEST_SHOWN = 20;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** Simple HTML beside the plain text: the title, the lines, the link. */
export function emailHtml(c: NotificationContent): string {
  const lines = c.lines.map((l) => `<p style="margin:0 0 4px">${escapeHtml(l)}</p>`).join('');
  const label = c.event === 'report' ? 'Abrir Informes' : 'Abrir Alarmas';
  const link = c.link ? `<p style="margin:12px 0 0"><a href="${escapeHtml(c.link)}">${label}</a></p>` : '';
  return `<div style="font-family:sans-serif;font-size:14px"><h2 style="font-size:16px;margin:0 0 8px">${escapeHtml(c.title)}</h2>${lines}${link}</div>`;
}

/**
 * E-mail over SMTP (SMTP_URL, SMTP_FROM): a connection per attempt, closed at the attempt's
 * deadline whatever phase it is in. Not a pool: a pooled connection stalled in its handshake
 * by a server that trickles its replies cannot be told apart from the others and closed, and a
 * flood is a few digests anyway, not an e-mail per alarm.
 */
export class EmailChannel {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    private readonly deadlineMs: number,
  ) {
    const url = new URL(smtpUrl);
    const defaults = { connectionTimeout: deadlineMs, greetingTimeout: deadlineMs, socketTimeout: deadlineMs };
    for (const [name, value] of Object.entries(defaults)) {
      if (!url.searchParams.has(name)) url.searchParams.set(name, String(value));
    }
    this.transport = nodemailer.createTransport(url.toString());
  }

  /**
   * One e-mail to the user: one notification, or — when several wait for the same person at once,
   * as in an alarm flood — all of them in one message, newest last.
   */
  async send(to: string, messages: Message[]): Promise<void> {
    const first = messages[0]!;
    const ids = messages.map((m) => m.deliveryId);
    const link = messages.find((m) => m.content.link)?.content.link ?? null;
    const shown = messages.slice(0, DIGEST_SHOWN);
    const more = messages.length - shown.length;
    const moreText = more > 0 ? `… y ${more} avisos más${link ? `: véalos en ${link}` : ' en la pantalla Alarmas'}.` : null;
    const text = [...shown.map((m) => notificationText(m.content)), ...(moreText ? [moreText] : [])].join('\n\n');
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new DeadlineError()), this.deadlineMs);
    const mail: SendMailOptions & { signal: AbortSignal } = {
      from: this.from,
      to,
      subject: messages.length === 1 ? first.content.title : `${messages.length} avisos de alarma · ${first.content.title}`,
      text: link ? `${text}\n\n${link}` : text,
      html: [...shown.map((m) => emailHtml(m.content)), ...(moreText ? [`<p>${escapeHtml(moreText)}</p>`] : [])].join('<hr style="border:0;border-top:1px solid #ccc;margin:12px 0">'),
      // The same id on a repeat after a crash: mail systems can tell it is one message.
      messageId: `<${first.deliveryId}@agua.notificaciones>`,
      headers: { 'X-Agua-Delivery': ids.join(' ') },
      // A report's files (its e-mail is never part of a digest).
      attachments: first.attachments?.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content) })),
      // nodemailer closes the connection when it aborts, in whatever phase it is.
      signal: deadline.signal,
    };
    try {
      await this.transport.sendMail(mail);
    } catch (err) {
      throw deadline.signal.aborted ? new DeadlineError() : err;
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    this.transport.close();
  }
}
