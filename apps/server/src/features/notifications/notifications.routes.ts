import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  CreateWebhookBodySchema,
  DELIVERY_STATES,
  DeliverySchema,
  EscalationPolicySchema,
  Literals,
  MyNotificationsSchema,
  NotificationPreferencesSchema,
  Page,
  PushSubscriptionBodySchema,
  UpdateWebhookBodySchema,
  WebhookCreatedSchema,
  WebhookSchema,
  type EscalationPolicy,
} from '@agua/shared';
import { badRequest } from '../../lib/errors';
import { errors, LIST_COMPRESSION, SESSION_SECURITY } from '../../lib/route-schemas';
import type { NotificationsService } from './notifications.service';

export interface NotificationsRoutesOptions {
  notifications: NotificationsService;
}

const tags = ['notifications'];
const Queued = Type.Object({ queued: Type.Integer({ description: 'notifications written to the outbox' }) });
const WebhookParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const TEST_SEND_LIMIT = "Test sends (push, e-mail, webhooks) share one budget per user: 5 at once, then one every 12 s; beyond it 429 TEST_SEND_RATE_LIMITED with Retry-After.";
const WEBHOOK_DESTINATIONS =
  'A URL whose host is — literally or by what its name resolves to — link-local (169.254.0.0/16, fe80::/10), a cloud metadata address, ' +
  'multicast, broadcast or unspecified is 422 WEBHOOK_URL_NOT_ALLOWED; the plant network, loopback included, is fine. Checked again at every attempt.';

const encodeCursor = (row: number) => Buffer.from(String(row)).toString('base64url');
function decodeCursor(cursor: string): number {
  const row = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^\d{1,15}$/.test(row)) throw badRequest('VALIDATION_FAILED', { field: 'cursor' });
  return Number(row);
}

/**
 * Notifications (docs/alarms.md "Notifications"): 'Mis notificaciones' for every signed-in user
 * (choices, this browser's push subscription, a test push), webhooks and the escalation policy
 * for admins (manage_users), and the delivery log (manage_users).
 */
export default async function notificationsRoutes(app: FastifyInstance, opts: NotificationsRoutesOptions): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const n = opts.notifications;
  const actor = (req: { auth: { user: Parameters<NotificationsService['mine']>[0] } | null; ip: string }) => ({ user: req.auth!.user, ip: req.ip });

  r.get('/api/v1/notifications/me', {
    config: { access: 'read' },
    schema: { tags, summary: "'Mis notificaciones': my choices per channel, and what the server can send", security: SESSION_SECURITY, response: { 200: MyNotificationsSchema, ...errors(401, 403) } },
    handler: async (req) => n.mine(req.auth!.user),
  });

  r.put('/api/v1/notifications/me', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'Save my choices: the lowest priority that reaches me per channel (null = off)',
      security: SESSION_SECURITY,
      body: NotificationPreferencesSchema,
      response: { 200: MyNotificationsSchema, ...errors(400, 401, 403) },
    },
    handler: async (req) => n.savePreferences(req.auth!.user, req.body),
  });

  r.post('/api/v1/notifications/me/push-subscriptions', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: "Turn push on for this browser (the PushSubscription's JSON); the same endpoint again replaces it",
      description:
        'The endpoint must be a public push service: a loopback, private, link-local, multicast or unspecified address, in any notation or ' +
        'by what its name resolves to, is 422 PUSH_ENDPOINT_NOT_ALLOWED (and is checked again at every attempt). An endpoint another user ' +
        'subscribed is 409 PUSH_ENDPOINT_TAKEN. At most 10 browsers per user: an 11th replaces the one subscribed longest ago.',
      security: SESSION_SECURITY,
      body: PushSubscriptionBodySchema,
      response: { 201: MyNotificationsSchema, ...errors(400, 401, 403, 409, 422) },
    },
    handler: async (req, reply) => reply.code(201).send(await n.subscribePush(req.auth!.user, req.body)),
  });

  r.delete('/api/v1/notifications/me/push-subscriptions', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'Turn push off for this browser (the web app does so when its user signs out); only my own subscriptions',
      security: SESSION_SECURITY,
      body: Type.Object({ endpoint: Type.String({ minLength: 1, maxLength: 2000 }) }),
      response: { 204: Type.Null(), ...errors(400, 401, 403, 404) },
    },
    handler: async (req, reply) => {
      await n.unsubscribePush(req.auth!.user, req.body.endpoint);
      return reply.code(204).send(null);
    },
  });

  r.post('/api/v1/notifications/me/test-push', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'A test push to every browser of mine with push on',
      description: TEST_SEND_LIMIT,
      security: SESSION_SECURITY,
      response: { 202: Queued, ...errors(401, 403, 404, 409, 429) },
    },
    handler: async (req, reply) => reply.code(202).send(await n.testPush(req.auth!.user)),
  });

  r.post('/api/v1/notifications/test-email', {
    config: { access: 'manage_users' },
    schema: {
      tags,
      summary: "'Enviar prueba' of e-mail: a test e-mail to my own address",
      description: TEST_SEND_LIMIT,
      security: SESSION_SECURITY,
      response: { 202: Queued, ...errors(401, 403, 409, 429) },
    },
    handler: async (req, reply) => reply.code(202).send(await n.testEmail(req.auth!.user)),
  });

  r.get('/api/v1/notifications', {
    compress: LIST_COMPRESSION,
    config: { access: 'manage_users' },
    schema: {
      tags,
      summary: 'The delivery log: every notification, newest first, with its attempts and last error',
      security: SESSION_SECURITY,
      querystring: Type.Object({
        state: Type.Optional(Literals(DELIVERY_STATES)),
        alarmId: Type.Optional(Type.String({ maxLength: 100 })),
        limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
        cursor: Type.Optional(Type.String({ maxLength: 200 })),
      }),
      response: { 200: Page(DeliverySchema), ...errors(400, 401, 403) },
    },
    handler: async (req) => {
      const { state, alarmId, limit, cursor } = req.query;
      const rows = await n.page({ limit: limit + 1, ...(state ? { state } : {}), ...(alarmId ? { alarmId } : {}), ...(cursor ? { after: decodeCursor(cursor) } : {}) });
      const items = rows.slice(0, limit);
      const last = items[items.length - 1];
      return { items: items.map((d) => n.toDelivery(d)), nextCursor: rows.length > limit && last ? encodeCursor(last.row) : null };
    },
  });

  r.get('/api/v1/notifications/escalation', {
    config: { access: 'manage_users' },
    schema: { tags, summary: 'The escalation policy', security: SESSION_SECURITY, response: { 200: EscalationPolicySchema, ...errors(401, 403) } },
    handler: async () => n.escalation(),
  });

  r.put('/api/v1/notifications/escalation', {
    config: { access: 'manage_users' },
    schema: {
      tags,
      summary: 'Set the escalation policy: alarms of priority ≤ maxPriority still unack after afterMin minutes go to these users and webhooks, again every repeatMin',
      security: SESSION_SECURITY,
      body: EscalationPolicySchema,
      response: { 200: EscalationPolicySchema, ...errors(400, 401, 403, 422) },
    },
    handler: async (req) => n.saveEscalation(req.body as EscalationPolicy, actor(req)),
  });

  r.get('/api/v1/webhooks', {
    config: { access: 'manage_users' },
    schema: { tags, summary: 'Webhooks (their secrets are never listed)', security: SESSION_SECURITY, response: { 200: Type.Array(WebhookSchema), ...errors(401, 403) } },
    handler: async () => n.webhooks(),
  });

  r.post('/api/v1/webhooks', {
    config: { access: 'manage_users' },
    schema: {
      tags,
      summary: 'Create a webhook; the answer holds its signing secret, shown this once',
      description: WEBHOOK_DESTINATIONS,
      security: SESSION_SECURITY,
      body: CreateWebhookBodySchema,
      response: { 201: WebhookCreatedSchema, ...errors(400, 401, 403, 422) },
    },
    handler: async (req, reply) => reply.code(201).send(await n.createWebhook(req.body, actor(req))),
  });

  r.patch('/api/v1/webhooks/:id', {
    config: { access: 'manage_users' },
    schema: {
      tags,
      summary: 'Edit a webhook',
      description: WEBHOOK_DESTINATIONS,
      security: SESSION_SECURITY,
      params: WebhookParams,
      body: UpdateWebhookBodySchema,
      response: { 200: WebhookSchema, ...errors(400, 401, 403, 404, 422) },
    },
    handler: async (req) => n.updateWebhook(req.params.id, req.body, actor(req)),
  });

  r.delete('/api/v1/webhooks/:id', {
    config: { access: 'manage_users' },
    schema: { tags, summary: 'Delete a webhook', security: SESSION_SECURITY, params: WebhookParams, response: { 204: Type.Null(), ...errors(401, 403, 404) } },
    handler: async (req, reply) => {
      await n.deleteWebhook(req.params.id, actor(req));
      return reply.code(204).send(null);
    },
  });

  r.post('/api/v1/webhooks/:id/test', {
    config: { access: 'manage_users' },
    schema: {
      tags,
      summary: "'Enviar prueba': a test notification to the webhook",
      description: TEST_SEND_LIMIT,
      security: SESSION_SECURITY,
      params: WebhookParams,
      response: { 202: Queued, ...errors(401, 403, 404, 429) },
    },
    handler: async (req, reply) => reply.code(202).send(await n.testWebhook(req.auth!.user, req.params.id)),
  });
}
