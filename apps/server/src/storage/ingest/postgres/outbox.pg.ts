import type pg from 'pg';
import type { NotificationContent } from '@agua/shared';
import { outboxKey, type AlarmNoticeRow, type OutboxClaimRow, type OutboxOutcomeRow, type OutboxRow } from '../rows';

const OUTBOX_COLUMNS =
  'dedupe_key, cause, alarm_id, event, channel, recipient_kind, recipient_id, target, state, attempts, next_attempt_ms, last_error, created_at_ms, sent_at_ms';

/**
 * SqliteOutboxWriter on PostgreSQL: the same rows and the same rule (every row has a unique key,
 * so writing a cause twice adds nothing), each method inside the caller's transaction.
 */
export class PgOutboxWriter {
  /** Writes notifications; returns how many were new. */
  async write(client: pg.ClientBase, entries: OutboxRow[]): Promise<number> {
    let added = 0;
    let lastCause: string | null = null;
    for (const e of entries) {
      if (e.cause !== lastCause) await this.storeContent(client, e.cause, e.content);
      lastCause = e.cause;
      const res = await client.query({
        name: 'agua.outbox.insert',
        text: `INSERT INTO notification_outbox (${OUTBOX_COLUMNS})
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', 0, $9, NULL, $10, NULL)
               ON CONFLICT (dedupe_key) DO NOTHING`,
        values: [outboxKey(e.cause, e), e.cause, e.alarmId, e.event, e.channel, e.recipientKind, e.recipientId, e.target, e.createdAtMs, e.createdAtMs],
      });
      added += res.rowCount ?? 0;
    }
    return added;
  }

  /** The notice of an alarm transition, in the alarm batch's transaction. */
  async writeNotice(client: pg.ClientBase, alarmId: string, transitionId: number, notice: AlarmNoticeRow, nowMs: number): Promise<void> {
    const cause = `t:${transitionId}`;
    if (notice.event !== 'cleared') {
      await this.write(client, notice.targets.map((t) => ({ ...t, cause, alarmId, event: 'raised', content: notice.content, createdAtMs: nowMs })));
      return;
    }
    await this.storeContent(client, cause, notice.content);
    // Everyone told of the alarm (raised or escalated), once per recipient, channel and target.
    await client.query({
      name: 'agua.outbox.cleared',
      text: `INSERT INTO notification_outbox (${OUTBOX_COLUMNS})
             SELECT $1::text || ':' || recipient_kind || ':' || recipient_id || ':' || channel || ':' || COALESCE(target, ''),
                    $1::text, $2::text, 'cleared', channel, recipient_kind, recipient_id, target, 'pending', 0, $3::bigint, NULL, $3::bigint, NULL
             FROM (SELECT DISTINCT channel, recipient_kind, recipient_id, target FROM notification_outbox
                   WHERE alarm_id = $2 AND event IN ('raised', 'escalated')) AS told
             ON CONFLICT (dedupe_key) DO NOTHING`,
      values: [cause, alarmId, nowMs],
    });
  }

  /** Before an attempt: counted, and due again at retryAtMs should the attempt never end. */
  async claim(client: pg.ClientBase, claims: OutboxClaimRow[]): Promise<void> {
    for (const c of claims) {
      await client.query({
        name: 'agua.outbox.claim',
        text: "UPDATE notification_outbox SET attempts = attempts + 1, next_attempt_ms = $1 WHERE id = $2 AND state = 'pending'",
        values: [c.retryAtMs, c.row],
      });
    }
  }

  async settle(client: pg.ClientBase, outcomes: OutboxOutcomeRow[]): Promise<void> {
    for (const o of outcomes) {
      if (o.ok) {
        await client.query({
          name: 'agua.outbox.sent',
          text: "UPDATE notification_outbox SET state = 'sent', sent_at_ms = $1, next_attempt_ms = NULL, last_error = NULL WHERE id = $2",
          values: [o.atMs, o.row],
        });
      } else if (o.retryAtMs === null) {
        await client.query({
          name: 'agua.outbox.failed',
          text: "UPDATE notification_outbox SET state = 'failed', next_attempt_ms = NULL, last_error = $1 WHERE id = $2",
          values: [o.error, o.row],
        });
      } else {
        await client.query({
          name: 'agua.outbox.retry',
          text: "UPDATE notification_outbox SET next_attempt_ms = $1, last_error = $2 WHERE id = $3 AND state = 'pending'",
          values: [o.retryAtMs, o.error, o.row],
        });
      }
    }
  }

  private async storeContent(client: pg.ClientBase, cause: string, content: NotificationContent): Promise<void> {
    await client.query({
      name: 'agua.outbox.content',
      text: 'INSERT INTO notification_contents (cause, content_json) VALUES ($1, $2) ON CONFLICT (cause) DO NOTHING',
      values: [cause, JSON.stringify(content)],
    });
  }
}
