import type BetterSqlite3 from 'better-sqlite3';
import type { AlarmChangeRow } from '../rows';
import type { SqliteOutboxWriter } from './outbox.sqlite';

export const ALARM_COLUMNS = [
  'id',
  'device_id',
  'rule_id',
  'kind',
  'priority',
  'state',
  'raised_at_ms',
  'acked_at_ms',
  'acked_by_json',
  'ack_comment',
  'cleared_at_ms',
  'shelved_until_ms',
  'shelved_by_json',
  'shelve_comment',
  'value_num',
  'value_text',
  'peak_value',
  'message',
  'ended_at_ms',
] as const;

/**
 * Stores batches of alarm changes (each alarm row with its transition row, and the notice the
 * transition causes, in the outbox) in one transaction.
 * Runs on the storage's writer thread, on the same connection as the readings: one connection
 * writes, so an alarm batch never waits for the readings' lock (nor the readings for it).
 */
export class SqliteAlarmChangesWriter {
  private readonly insertAlarm: BetterSqlite3.Statement;
  private readonly updateAlarm: BetterSqlite3.Statement;
  private readonly insertTransition: BetterSqlite3.Statement;
  private readonly writeAllTx: (changes: AlarmChangeRow[]) => void;

  constructor(sqlite: BetterSqlite3.Database, outbox: SqliteOutboxWriter) {
    this.insertAlarm = sqlite.prepare(`INSERT INTO alarms (${ALARM_COLUMNS.join(', ')}) VALUES (${ALARM_COLUMNS.map((c) => `@${c}`).join(', ')})`);
    const settable = ALARM_COLUMNS.filter((c) => c !== 'id');
    this.updateAlarm = sqlite.prepare(`UPDATE alarms SET ${settable.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`);
    this.insertTransition = sqlite.prepare(
      'INSERT INTO alarm_transitions (alarm_id, at_ms, from_state, to_state, by_json, comment) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.writeAllTx = sqlite.transaction((changes: AlarmChangeRow[]) => {
      for (const { alarm, transition: t, isNew, notice } of changes) {
        (isNew ? this.insertAlarm : this.updateAlarm).run(alarm);
        const { lastInsertRowid } = this.insertTransition.run(alarm.id, t.atMs, t.from, t.to, t.byJson, t.comment);
        if (notice) outbox.writeNotice(alarm.id, lastInsertRowid, notice, t.atMs);
      }
    });
  }

  /** In a transaction of its own, or inside the caller's (better-sqlite3 nests it as a savepoint). */
  writeAll(changes: AlarmChangeRow[]): void {
    this.writeAllTx(changes);
  }
}
