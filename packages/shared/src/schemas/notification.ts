import { Type, type Static } from '@sinclair/typebox';
import { DELIVERY_STATES, ESCALATION_LIMITS, NOTIFICATION_CHANNELS, NOTIFICATION_EVENTS, RECIPIENT_KINDS, WEBHOOK_FORMATS } from '../notifications/notification-policy';
import { AlarmPrioritySchema } from './alarm';
import { IsoDateTime, Literals } from './common';

const MinPriority = Type.Union([AlarmPrioritySchema, Type.Null()], { description: 'lowest priority that reaches (1 Crítica … 4 Baja); null = off' });

export const NotificationPreferencesSchema = Type.Object(
  {
    email: Type.Object({ minPriority: MinPriority }, { additionalProperties: false }),
    push: Type.Object({ minPriority: MinPriority }, { additionalProperties: false }),
  },
  { title: 'NotificationPreferences', additionalProperties: false },
);
export type NotificationPreferences = Static<typeof NotificationPreferencesSchema>;

/** What 'Mis notificaciones' shows besides the choices: what the server can send. */
export const MyNotificationsSchema = Type.Object(
  {
    preferences: NotificationPreferencesSchema,
    email: Type.Union([Type.String(), Type.Null()], { description: 'where e-mails go (the account e-mail)' }),
    channels: Type.Object({ email: Type.Boolean({ description: 'SMTP configured' }), push: Type.Boolean({ description: 'PUBLIC_URL set' }) }),
    vapidPublicKey: Type.String({ description: 'applicationServerKey for PushManager.subscribe' }),
    pushSubscriptions: Type.Integer({ description: 'browsers of this user with push on' }),
  },
  { title: 'MyNotifications' },
);
export type MyNotifications = Static<typeof MyNotificationsSchema>;

export const PushSubscriptionBodySchema = Type.Object(
  {
    endpoint: Type.String({ format: 'uri', minLength: 10, maxLength: 2000 }),
    keys: Type.Object(
      { p256dh: Type.String({ minLength: 20, maxLength: 200, pattern: '^[A-Za-z0-9_-]+=*$' }), auth: Type.String({ minLength: 8, maxLength: 100, pattern: '^[A-Za-z0-9_-]+=*$' }) },
      { additionalProperties: true },
    ),
  },
  { title: 'PushSubscription', additionalProperties: true },
);
export type PushSubscriptionBody = Static<typeof PushSubscriptionBodySchema>;

const WebhookName = Type.String({ minLength: 1, maxLength: 100 });
const WebhookUrl = Type.String({ format: 'uri', minLength: 8, maxLength: 2000, pattern: '^https?://' });
const TelegramChatId = Type.String({ minLength: 1, maxLength: 100, description: 'chat_id of a Telegram body' });

export const WebhookSchema = Type.Object(
  {
    id: Type.String(),
    name: WebhookName,
    url: WebhookUrl,
    format: Literals(WEBHOOK_FORMATS),
    chatId: Type.Union([TelegramChatId, Type.Null()]),
    minPriority: AlarmPrioritySchema,
    enabled: Type.Boolean(),
    createdAt: IsoDateTime,
  },
  { title: 'Webhook' },
);
export type Webhook = Static<typeof WebhookSchema>;

export const WebhookCreatedSchema = Type.Intersect([WebhookSchema, Type.Object({ secret: Type.String({ description: 'HMAC key of X-Agua-Signature; shown only now' }) })], {
  title: 'WebhookCreated',
});

export const CreateWebhookBodySchema = Type.Object(
  {
    name: WebhookName,
    url: WebhookUrl,
    format: Type.Optional(Literals(WEBHOOK_FORMATS)),
    chatId: Type.Optional(TelegramChatId),
    minPriority: Type.Optional(AlarmPrioritySchema),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBodySchema>;

export const UpdateWebhookBodySchema = Type.Partial(CreateWebhookBodySchema, { additionalProperties: false, minProperties: 1 });
export type UpdateWebhookBody = Static<typeof UpdateWebhookBodySchema>;

const Minutes = Type.Integer({ minimum: 1, maximum: ESCALATION_LIMITS.minutesMax });
export const EscalationPolicySchema = Type.Object(
  {
    maxPriority: AlarmPrioritySchema,
    afterMin: Minutes,
    repeatMin: Type.Union([Minutes, Type.Null()]),
    userIds: Type.Array(Type.String({ maxLength: 64 }), { maxItems: ESCALATION_LIMITS.targetsMax, uniqueItems: true }),
    webhookIds: Type.Array(Type.String({ maxLength: 64 }), { maxItems: ESCALATION_LIMITS.targetsMax, uniqueItems: true }),
  },
  { title: 'EscalationPolicy', additionalProperties: false },
);

export const DeliverySchema = Type.Object(
  {
    id: Type.String(),
    event: Literals(NOTIFICATION_EVENTS),
    channel: Literals(NOTIFICATION_CHANNELS),
    recipient: Type.Object({ kind: Literals(RECIPIENT_KINDS), id: Type.String(), label: Type.String() }),
    alarmId: Type.Union([Type.String(), Type.Null()]),
    title: Type.String(),
    state: Literals(DELIVERY_STATES),
    attempts: Type.Integer(),
    lastError: Type.Union([Type.String(), Type.Null()]),
    createdAt: IsoDateTime,
    sentAt: Type.Union([IsoDateTime, Type.Null()]),
    nextAttemptAt: Type.Union([IsoDateTime, Type.Null()]),
  },
  { title: 'Delivery' },
);
export type Delivery = Static<typeof DeliverySchema>;
