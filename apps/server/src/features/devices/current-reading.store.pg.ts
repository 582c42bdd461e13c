import type pg from 'pg';
import type { CurrentReadingWrite } from './current-reading.store';

/**
 * CurrentReadingStore on PostgreSQL: the devices' current reading, gate state and lastSeen moved
 * by a commit's newest readings, in one statement inside the readings' transaction. The same
 * rules as on SQLite: the current reading only moves forward in time (same time or later), and
 * lastSeen only forward (GREATEST ignores a NULL, so a reading not heard from the device leaves it).
 */
export class PgCurrentReadingStore {
  /** Must run inside the readings' transaction, on its client. */
  async write(client: pg.ClientBase, rows: CurrentReadingWrite[]): Promise<void> {
    if (rows.length === 0) return;
    // Rows in id order: two instances' transactions lock the devices they share in the same order.
    const sorted = [...rows].sort((a, b) => (a.deviceId < b.deviceId ? -1 : a.deviceId > b.deviceId ? 1 : 0));
    await client.query({
      name: 'agua.devices.current-reading',
      text: `UPDATE devices AS d
             SET reading_value_num = u.v, reading_value_text = u.t, reading_status = u.s, reading_ts_ms = u.ts,
                 gate_state = COALESCE(u.t, d.gate_state), last_seen_ms = GREATEST(d.last_seen_ms, u.heard)
             FROM unnest($1::text[], $2::bigint[], $3::float8[], $4::text[], $5::text[], $6::bigint[]) AS u(id, ts, v, t, s, heard)
             WHERE d.id = u.id AND (d.reading_ts_ms IS NULL OR d.reading_ts_ms <= u.ts)`,
      values: [
        sorted.map((r) => r.deviceId),
        sorted.map((r) => r.tsMs),
        sorted.map((r) => r.valueNum),
        sorted.map((r) => r.valueText),
        sorted.map((r) => r.status),
        sorted.map((r) => r.heardMs),
      ],
    });
  }
}
