import type BetterSqlite3 from 'better-sqlite3';
import type { NotificationContent } from '@agua/shared';
import { outboxKey, type AlarmNoticeRow, type OutboxClaimRow, type OutboxOutcomeRow, type OutboxRow } from '../rows';

/**
 * Writes the notification outbox. Runs on the storage's writer thread, inside the alarm batch's
 * transaction for notices of alarm transitions (docs/decisions/010-notification-outbox.md:
 * written in the same transaction as the alarm transition that causes it), and on its own for escalations, tests and
 * the outcome of attempts. Every row has a unique key: writing the same cause twice adds nothing.
 * A cause's content is stored once, shared by all its recipients.
 */
export class SqliteOutboxWriter {
  private readonly insertContent: BetterSqlite3.Statement;
  private readonly insertRow: BetterSqlite3.Statement;
  private readonly insertCleared: BetterSqlite3.Statement;
  private readonly markClaimed: BetterSqlite3.Statement;
  private readonly markSent: BetterSqlite3.Statement;
  private readonly markRetry: BetterSqlite3.Statement;
  private readonly markFailed: BetterSqlite3.Statement;
  private readonly writeTx: (entries: OutboxRow[]) => number;
  private readonly settleTx: (outcomes: OutboxOutcomeRow[]) => void;
  private readonly claimTx: (claims: OutboxClaimRow[]) => void;

  constructor(sqlite: BetterSqlite3.Database) {
    this.insertContent = sqlite.prepare('INSERT OR IGNORE INTO notification_contents (cause, content_json) VALUES (?, ?)');
    this.insertRow = sqlite.prepare(
      `INSERT OR IGNORE INTO notification_outbox
         (dedupe_key, cause, alarm_id, event, channel, recipient_kind, recipient_id, target, state, attempts, next_attempt_ms, last_error, created_at_ms, sent_at_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, NULL, ?, NULL)`,
    );
    // Everyone told of the alarm (raised or escalated), once per recipient, channel and target.
    this.insertCleared = sqlite.prepare(
      `INSERT OR IGNORE INTO notification_outbox
         (dedupe_key, cause, alarm_id, event, channel, recipient_kind, recipient_id, target, state, attempts, next_attempt_ms, last_error, created_at_ms, sent_at_ms)
       SELECT @cause || ':' || recipient_kind || ':' || recipient_id || ':' || channel || ':' || COALESCE(target, ''),
              @cause, @alarmId, 'cleared', channel, recipient_kind, recipient_id, target, 'pending', 0, @now, NULL, @now, NULL
       FROM (SELECT DISTINCT channel, recipient_kind, recipient_id, target FROM notification_outbox
             WHERE alarm_id = @alarmId AND event IN ('raised', 'escalated'))`,
    );
    this.markClaimed = sqlite.prepare("UPDATE notification_outbox SET attempts = attempts + 1, next_attempt_ms = ? WHERE id = ? AND state = 'pending'");
    this.markSent = sqlite.prepare("UPDATE notification_outbox SET state = 'sent', sent_at_ms = ?, next_attempt_ms = NULL, last_error = NULL WHERE id = ?");
    this.markRetry = sqlite.prepare("UPDATE notification_outbox SET next_attempt_ms = ?, last_error = ? WHERE id = ? AND state = 'pending'");
    this.markFailed = sqlite.prepare("UPDATE notification_outbox SET state = 'failed', next_attempt_ms = NULL, last_error = ? WHERE id = ?");
    this.writeTx = sqlite.transaction((entries: OutboxRow[]) => this.insertEntries(entries));
    this.settleTx = sqlite.transaction((outcomes: OutboxOutcomeRow[]) => {
      for (const o of outcomes) {
        if (o.ok) this.markSent.run(o.atMs, o.row);
        else if (o.retryAtMs === null) this.markFailed.run(o.error, o.row);
        else this.markRetry.run(o.retryAtMs, o.error, o.row);
      }
    });
    this.claimTx = sqlite.transaction((claims: OutboxClaimRow[]) => {
      for (const c of claims) this.markClaimed.run(c.retryAtMs, c.row);
    });
  }

  /** Writes notifications (escalations, tests); returns how many were new. */
  write(entries: OutboxRow[]): number {
    return this.writeTx(entries);
  }

  /** The notice of an alarm transition; called inside the alarm batch's transaction. */
  writeNotice(alarmId: string, transitionId: number | bigint, notice: AlarmNoticeRow, nowMs: number): void {
    const cause = `t:${transitionId}`;
    if (notice.event === 'cleared') {
      this.storeContent(cause, notice.content);
      this.insertCleared.run({ cause, alarmId, now: nowMs });
      return;
    }
    this.insertEntries(notice.targets.map((t) => ({ ...t, cause, alarmId, event: 'raised', content: notice.content, createdAtMs: nowMs })));
  }

  /** Before an attempt: counted, and due again at retryAtMs should the attempt never end (a crash). */
  claim(claims: OutboxClaimRow[]): void {
    this.claimTx(claims);
  }

  settle(outcomes: OutboxOutcomeRow[]): void {
    this.settleTx(outcomes);
  }

  private insertEntries(entries: OutboxRow[]): number {
    let added = 0;
    let lastCause: string | null = null;
    for (const e of entries) {
      if (e.cause !== lastCause) this.storeContent(e.cause, e.content);
      lastCause = e.cause;
      added += this.insertRow.run(outboxKey(e.cause, e), e.cause, e.alarmId, e.event, e.channel, e.recipientKind, e.recipientId, e.target, e.createdAtMs, e.createdAtMs).changes;
    }
    return added;
  }

  private storeContent(cause: string, content: NotificationContent): void {
    this.insertContent.run(cause, JSON.stringify(content));
  }
}
