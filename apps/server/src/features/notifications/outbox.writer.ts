import type BetterSqlite3 from 'better-sqlite3';
import { newId } from '../../lib/ids';
import { dedupeKey, type AlarmNotice, type DeliveryOutcome, type OutboxEntry } from './outbox';

/**
 * Writes the notification outbox. Runs on the storage's writer thread, inside the alarm batch's
 * transaction for notices of alarm transitions (ALARMS.md: "written to an outbox in the same
 * transaction as the alarm transition that causes it"), and on its own for escalations, tests and
 * the outcome of attempts. Every row has a unique key: writing the same cause twice adds nothing.
 */
export class SqliteOutboxWriter {
  private readonly insertRow: BetterSqlite3.Statement;
  private readonly insertCleared: BetterSqlite3.Statement;
  private readonly markClaimed: BetterSqlite3.Statement;
  private readonly markSent: BetterSqlite3.Statement;
  private readonly markRetry: BetterSqlite3.Statement;
  private readonly markFailed: BetterSqlite3.Statement;
  private readonly writeTx: (entries: OutboxEntry[]) => number;
  private readonly settleTx: (outcomes: DeliveryOutcome[]) => void;
  private readonly claimTx: (claims: Array<{ id: string; retryAtMs: number }>) => void;

  constructor(sqlite: BetterSqlite3.Database) {
    this.insertRow = sqlite.prepare(
      `INSERT OR IGNORE INTO notification_outbox
         (id, dedupe_key, alarm_id, event, channel, recipient_kind, recipient_id, target, content_json, state, attempts, next_attempt_ms, last_error, created_at_ms, sent_at_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, NULL, ?, NULL)`,
    );
    // Everyone told of the alarm (raised or escalated), once per recipient, channel and target.
    this.insertCleared = sqlite.prepare(
      `INSERT OR IGNORE INTO notification_outbox
         (id, dedupe_key, alarm_id, event, channel, recipient_kind, recipient_id, target, content_json, state, attempts, next_attempt_ms, last_error, created_at_ms, sent_at_ms)
       SELECT @idPrefix || ROW_NUMBER() OVER (), @cause || ':' || recipient_kind || ':' || recipient_id || ':' || channel || ':' || COALESCE(target, ''),
              @alarmId, 'cleared', channel, recipient_kind, recipient_id, target, @content, 'pending', 0, @now, NULL, @now, NULL
       FROM (SELECT DISTINCT channel, recipient_kind, recipient_id, target FROM notification_outbox
             WHERE alarm_id = @alarmId AND event IN ('raised', 'escalated'))`,
    );
    this.markClaimed = sqlite.prepare("UPDATE notification_outbox SET attempts = attempts + 1, next_attempt_ms = ? WHERE id = ? AND state = 'pending'");
    this.markSent = sqlite.prepare("UPDATE notification_outbox SET state = 'sent', sent_at_ms = ?, next_attempt_ms = NULL, last_error = NULL WHERE id = ?");
    this.markRetry = sqlite.prepare("UPDATE notification_outbox SET next_attempt_ms = ?, last_error = ? WHERE id = ? AND state = 'pending'");
    this.markFailed = sqlite.prepare("UPDATE notification_outbox SET state = 'failed', next_attempt_ms = NULL, last_error = ? WHERE id = ?");
    this.writeTx = sqlite.transaction((entries: OutboxEntry[]) => this.insertEntries(entries));
    this.settleTx = sqlite.transaction((outcomes: DeliveryOutcome[]) => {
      for (const o of outcomes) {
        if (o.ok) this.markSent.run(o.atMs, o.id);
        else if (o.retryAtMs === null) this.markFailed.run(o.error, o.id);
        else this.markRetry.run(o.retryAtMs, o.error, o.id);
      }
    });
    this.claimTx = sqlite.transaction((claims: Array<{ id: string; retryAtMs: number }>) => {
      for (const c of claims) this.markClaimed.run(c.retryAtMs, c.id);
    });
  }

  /** Writes notifications (escalations, tests); returns how many were new. */
  write(entries: OutboxEntry[]): number {
    return this.writeTx(entries);
  }

  /** The notice of an alarm transition; called inside the alarm batch's transaction. */
  writeNotice(alarmId: string, transitionId: number | bigint, notice: AlarmNotice, nowMs: number): void {
    const cause = `t:${transitionId}`;
    if (notice.event === 'cleared') {
      this.insertCleared.run({ idPrefix: `${newId('ntf')}_`, cause, alarmId, content: JSON.stringify(notice.content), now: nowMs });
      return;
    }
    this.insertEntries(
      notice.targets.map((t) => ({ ...t, id: newId('ntf'), cause, alarmId, event: 'raised', content: notice.content, createdAtMs: nowMs })),
    );
  }

  /** Before an attempt: counted, and due again at retryAtMs should the attempt never end (a crash). */
  claim(claims: Array<{ id: string; retryAtMs: number }>): void {
    this.claimTx(claims);
  }

  settle(outcomes: DeliveryOutcome[]): void {
    this.settleTx(outcomes);
  }

  private insertEntries(entries: OutboxEntry[]): number {
    let added = 0;
    for (const e of entries) {
      const content = JSON.stringify(e.content);
      added += this.insertRow.run(e.id, dedupeKey(e.cause, e), e.alarmId, e.event, e.channel, e.recipientKind, e.recipientId, e.target, content, e.createdAtMs, e.createdAtMs).changes;
    }
    return added;
  }
}
