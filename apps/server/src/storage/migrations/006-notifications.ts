import { sql, type Kysely } from 'kysely';

/**
 * Notifications (docs/alarms.md "Notifications"): who wants what (per-user choices, webhooks, push
 * subscriptions) and the outbox (the escalation policy and VAPID keys are in `settings`) — one row per
 * (cause, recipient, channel, target), written in the transaction of the alarm transition that
 * causes it, so a notification is neither lost nor written twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notification_preferences')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('email_min_priority', 'integer')
    .addColumn('push_min_priority', 'integer')
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('chat_id', 'text')
    .addColumn('min_priority', 'integer', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .execute();

  // What a notification says, once per cause: every recipient of a transition shares it.
  await db.schema
    .createTable('notification_contents')
    .addColumn('cause', 'text', (c) => c.primaryKey())
    .addColumn('content_json', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('notification_outbox')
    // A growing integer: rows are appended, not scattered through the table (a flood writes thousands).
    .addColumn('id', 'integer', (c) => c.primaryKey())
    // What makes a notification one: e.g. `t:<transition id>:user:<id>:email:` — unique, so a
    // restart or a repeated evaluation can never write a second one.
    .addColumn('dedupe_key', 'text', (c) => c.notNull().unique())
    .addColumn('cause', 'text', (c) => c.notNull())
    .addColumn('alarm_id', 'text')
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('recipient_kind', 'text', (c) => c.notNull())
    .addColumn('recipient_id', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_ms', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('sent_at_ms', 'bigint')
    .execute();
  await sql`CREATE INDEX notification_outbox_due ON notification_outbox (channel, next_attempt_ms) WHERE state = 'pending'`.execute(db);
  await db.schema.createIndex('notification_outbox_alarm').on('notification_outbox').column('alarm_id').execute();
}
