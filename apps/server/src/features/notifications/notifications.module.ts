import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { alarmsLink } from '@agua/shared';
import type { Config } from '../../config/env';
import type { EventBus } from '../../lib/event-bus';
import type { Database } from '../../storage/schema';
import type { SettingsRepository } from '../../storage/settings.repository';
import type { AlarmEngine } from '../alarms/alarm-engine';
import type { AuditService } from '../audit/audit.service';
import type { DevicesService } from '../devices/devices.service';
import type { UsersRepository } from '../users/users.repository';
import { AlarmNotices } from './alarm-notices';
import { pushPolicy } from './channels/destinations';
import { generateVapidKeys, type VapidKeys } from './channels/push-channel';
import type { Attachment } from './channels/channel';
import { DeliveryThread } from './delivery-thread';
import { NotificationDirectory } from './notification-directory';
import { NotificationSender, type Deliver, type OutboxStore } from './notification-sender';
import { NotificationsRepository, type DeliveryRecord } from './notifications.repository';
import { NotificationsService } from './notifications.service';

/** The files a report's e-mail carries, read when it is sent (the reports feature's, docs/reports.md). */
export type AttachmentsOf = (reportRunId: string) => Promise<Attachment[]>;

export interface Notifications {
  service: NotificationsService;
  /** Where reports' e-mails get their files from (set by the reports feature, which comes later). */
  useAttachments(load: AttachmentsOf): void;
  sender: NotificationSender;
  directory: NotificationDirectory;
  /** Ends the delivery thread (and its SMTP connections). */
  close(): Promise<void>;
}

export interface NotificationsDeps {
  config: Config;
  db: Kysely<Database>;
  settings: SettingsRepository;
  users: UsersRepository;
  devices: DevicesService;
  /** Plans each batch's notices (so they are stored in its transaction) and tells what is open. */
  alarmEngine: AlarmEngine;
  /** The outbox's writer: the ingest side's, so one connection writes. */
  store: OutboxStore;
  audit: AuditService;
  bus: EventBus;
  log: FastifyBaseLogger;
}

/**
 * Attempts under way at once, per channel (e-mail: a few connections to the one SMTP server).
 * A host may use half of its channel (SLOTS_PER_HOST): 64 keeps the 32 at once that one webhook
 * receiver or one push service had before hosts were capped.
 */
const CONCURRENCY = { email: 4, webhook: 64, push: 64 } as const;
/**
 * Attempts under way at once per destination (docs/security.md "Outbound requests"): a receiver
 * that never finishes answering holds at most this many slots of its channel for an attempt
 * deadline, and everything else goes ahead beside it. Per user for push (all of a user's
 * browsers, whoever chose their endpoints): users choose those, so they get few.
 */
export const SLOTS_PER_DESTINATION = 4;
/**
 * Per host (a webhook's, a push service's): half the channel. One host never holds the whole
 * channel, and the hosts every alarm goes to — the utility's one webhook receiver, the one push
 * service every Chrome shares (fcm.googleapis.com) — still get enough slots for a flood: at 4, a
 * 1,000-alarm flood reached a local webhook receiver with a p99 of 2.1 s (target 1 s).
 */
export const SLOTS_PER_HOST = CONCURRENCY.webhook / 2;
const slotsOf = (key: string): number => (key.startsWith('host:') ? SLOTS_PER_HOST : SLOTS_PER_DESTINATION);
/** How often the job list has the sender look for due notifications, besides the kicks of new ones. */
export const NOTIFICATION_POLL_MS = 1_000;

/** The notifications feature, composed: channels from the configuration, planning hooked to the alarm engine. */
export async function createNotifications(d: NotificationsDeps): Promise<Notifications> {
  const { config } = d;
  const repo = new NotificationsRepository(d.db);
  const link = () => (config.publicUrl ? alarmsLink(config.publicUrl) : null);
  const directory = new NotificationDirectory(repo, () => d.users.list(), { email: config.smtpUrl !== null, push: config.publicUrl !== null });
  await directory.reload();
  const notices = new AlarmNotices(directory, d.devices, link);
  d.alarmEngine.useNoticePlanner((changes) => notices.annotate(changes));

  const vapid = config.vapidKeys ?? (JSON.parse(await d.settings.getOrCreate('vapid_keys', () => JSON.stringify(generateVapidKeys()))) as VapidKeys);
  const thread = new DeliveryThread(
    {
      smtpUrl: config.smtpUrl,
      smtpFrom: config.smtpFrom,
      vapid,
      vapidSubject: vapidSubject(config),
      deadlineMs: config.notificationDeadlineMs,
      pushAllowPrivate: config.pushAllowPrivate,
    },
    d.log,
  );
  let attachmentsOf: AttachmentsOf = async () => [];
  // Whom to send to is decided here, with what the directory knows now; the sending is the thread's.
  const deliver: Deliver = async ([delivery], messages) => {
    const { channel, recipientKind, recipientId, target } = delivery!;
    switch (channel) {
      case 'email': {
        const user = recipientKind === 'address' ? { email: recipientId, status: 'active' } : directory.user(recipientId);
        const runId = messages[0]!.content.reportRunId;
        const withFiles = runId ? [{ ...messages[0]!, attachments: await attachmentsOf(runId) }] : messages;
        return thread.send({ channel, user: user ? { email: user.email, active: user.status === 'active' } : null }, withFiles);
      }
      case 'webhook':
        return thread.send({ channel, webhook: directory.webhook(recipientId) ?? null }, messages);
      case 'push':
        return thread.send({ channel, subscription: (target && directory.subscription(target)) || null }, messages);
    }
  };

  let sender: NotificationSender | undefined;
  const service = new NotificationsService({
    repo,
    directory,
    notices,
    store: d.store,
    audit: d.audit,
    vapidPublicKey: vapid.publicKey,
    link,
    allowInsecurePush: config.pushAllowHttp,
    pushPolicy: pushPolicy(config.pushAllowPrivate),
    written: () => sender?.kick(),
  });
  sender = new NotificationSender(repo, d.store, deliver, d.log, {
    concurrency: CONCURRENCY,
    perDestination: slotsOf,
    destinationsOf: (delivery) => destinationsOf(directory, delivery),
    attemptMs: config.notificationDeadlineMs,
    forgetSubscription: (id) => service.forgetSubscription(id),
  });

  if (!config.publicUrl && (config.smtpUrl || directory.webhooks().length > 0)) {
    d.log.warn('notifications are configured but PUBLIC_URL is not: e-mail and push are not sent, and webhooks carry no link to /alarms. Set PUBLIC_URL to the address people open the system on.');
  }
  // An alarm change stored here may carry notices to send.
  d.bus.on('alarm.updated', () => sender?.kick());
  return {
    service,
    sender,
    directory,
    useAttachments: (load) => {
      attachmentsOf = load;
    },
    close: () => thread.close(),
  };
}

/**
 * The destinations an attempt occupies: a webhook's host; a push endpoint's host and its user
 * (a user's browsers together, whatever hosts they name). E-mail goes to the one SMTP server.
 */
function destinationsOf(directory: NotificationDirectory, d: DeliveryRecord): string[] {
  switch (d.channel) {
    case 'webhook': {
      const webhook = directory.webhook(d.recipientId);
      return webhook ? [`host:${new URL(webhook.url).hostname}`] : [];
    }
    case 'push': {
      const subscription = d.target ? directory.subscription(d.target) : undefined;
      return subscription ? [`host:${new URL(subscription.endpoint).hostname}`, `user:${d.recipientId}`] : [];
    }
    case 'email':
      return [];
  }
}

/** VAPID's contact: the system's https address, else the e-mail sender's address. */
function vapidSubject(config: Config): string {
  if (config.publicUrl?.startsWith('https://')) return config.publicUrl;
  const address = /<([^>]+)>/.exec(config.smtpFrom)?.[1] ?? config.smtpFrom;
  return `mailto:${address.includes('@') ? address : 'alarmas@localhost'}`;
}
