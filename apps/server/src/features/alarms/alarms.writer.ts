import type BetterSqlite3 from 'better-sqlite3';
import { personJson, toRow, type AlarmChange } from './alarms.repository';

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
 * Stores batches of alarm changes (each alarm row with its transition row, and what the
 * transition tells people) in one transaction.
 * Runs on the storage's writer thread, on the same connection as the readings: one connection
 * writes, so an alarm batch never waits for the readings' lock (nor the readings for it).
 */
export class SqliteAlarmsWriter {
  private readonly insertAlarm: BetterSqlite3.Statement;
  private readonly updateAlarm: BetterSqlite3.Statement;
  private readonly insertTransition: BetterSqlite3.Statement;
  private readonly writeAllTx: (changes: AlarmChange[]) => void;

  /**
   * @param onStored runs inside the transaction after each change's rows, with the transition's
   * id: what else must be stored with the transition (the notification outbox).
   */
  constructor(sqlite: BetterSqlite3.Database, onStored: (change: AlarmChange, transitionId: number | bigint) => void = () => undefined) {
    this.insertAlarm = sqlite.prepare(`INSERT INTO alarms (${ALARM_COLUMNS.join(', ')}) VALUES (${ALARM_COLUMNS.map((c) => `@${c}`).join(', ')})`);
    const settable = ALARM_COLUMNS.filter((c) => c !== 'id');
    this.updateAlarm = sqlite.prepare(`UPDATE alarms SET ${settable.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`);
    this.insertTransition = sqlite.prepare(
      'INSERT INTO alarm_transitions (alarm_id, at_ms, from_state, to_state, by_json, comment) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.writeAllTx = sqlite.transaction((changes: AlarmChange[]) => {
      for (const change of changes) {
        const { alarm, transition: t, isNew } = change;
        (isNew ? this.insertAlarm : this.updateAlarm).run(toRow(alarm));
        const { lastInsertRowid } = this.insertTransition.run(alarm.id, t.atMs, t.from, t.to, personJson(t.by), t.comment);
        onStored(change, lastInsertRowid);
      }
    });
  }

  /** In a transaction of its own, or inside the caller's (better-sqlite3 nests it as a savepoint). */
  writeAll(changes: AlarmChange[]): void {
    this.writeAllTx(changes);
  }
}
