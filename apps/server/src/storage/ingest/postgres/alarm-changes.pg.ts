import type pg from 'pg';
import type { AlarmChangeRow } from '../rows';
import { ALARM_COLUMNS } from '../sqlite/alarm-changes.sqlite';
import type { PgOutboxWriter } from './outbox.pg';

const SETTABLE = ALARM_COLUMNS.filter((c) => c !== 'id');
const INSERT_ALARM = `INSERT INTO alarms (${ALARM_COLUMNS.join(', ')}) VALUES (${ALARM_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`;
const UPDATE_ALARM = `UPDATE alarms SET ${SETTABLE.map((c, i) => `${c} = $${i + 2}`).join(', ')} WHERE id = $1`;
const INSERT_TRANSITION = 'INSERT INTO alarm_transitions (alarm_id, at_ms, from_state, to_state, by_json, comment) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id';

/**
 * SqliteAlarmChangesWriter on PostgreSQL: each alarm row with its transition row, and the notice
 * the transition causes, inside the caller's transaction.
 */
export class PgAlarmChangesWriter {
  constructor(private readonly outbox: PgOutboxWriter) {}

  /** Must run inside a transaction, on its client. */
  async writeAll(client: pg.ClientBase, changes: AlarmChangeRow[]): Promise<void> {
    for (const { alarm, transition: t, isNew, notice } of changes) {
      const row = alarm as unknown as Record<string, unknown>;
      if (isNew) await client.query({ name: 'agua.alarms.insert', text: INSERT_ALARM, values: ALARM_COLUMNS.map((c) => row[c]) });
      else await client.query({ name: 'agua.alarms.update', text: UPDATE_ALARM, values: ALARM_COLUMNS.map((c) => row[c]) });
      const { rows } = await client.query<{ id: number }>({
        name: 'agua.alarms.transition',
        text: INSERT_TRANSITION,
        values: [alarm.id, t.atMs, t.from, t.to, t.byJson, t.comment],
      });
      if (notice) await this.outbox.writeNotice(client, alarm.id, rows[0]!.id, notice, t.atMs);
    }
  }
}
