import type pg from 'pg';
import type { GateStateRow, LastSeenRow } from '../rows';

/**
 * SqliteDeviceStateWriter on PostgreSQL: the statement that moves devices' current reading, gate state
 * and lastSeen, embedded in the readings writer's last statement of each commit (so that a reading
 * and the state it caused commit together).
 * `newest` names a relation with each device's newest new reading of the commit: device_id, ts_ms,
 * value_num, value_text, status, raw_num, heard. The same rules as on SQLite: the current reading only
 * moves forward in time (same time or later); lastSeen only forward, and GREATEST ignores the
 * NULL of a reading not heard from the device. The rows are locked first, in id order (byte order,
 * as the lastSeen flush sorts them), and held until the writer's COMMIT: two transactions taking
 * them in different orders would each wait for the other until PostgreSQL's deadlock check (1 s).
 */
export function updateCurrentReadings(newest: string): string {
  return `UPDATE devices AS d
  SET reading_value_num = n.value_num, reading_value_text = n.value_text, reading_status = n.status, reading_ts_ms = n.ts_ms, reading_raw_num = n.raw_num,
      gate_state = COALESCE(n.value_text, d.gate_state), last_seen_ms = GREATEST(d.last_seen_ms, n.heard)
  FROM ${newest} AS n,
    (SELECT id FROM devices WHERE id IN (SELECT device_id FROM ${newest}) ORDER BY id COLLATE "C" FOR NO KEY UPDATE) AS locked
  WHERE d.id = n.device_id AND d.id = locked.id AND (d.reading_ts_ms IS NULL OR d.reading_ts_ms <= n.ts_ms)`;
}

/** A gate state reported outside a reading (an acknowledgement). */
export async function writeGateState(client: pg.ClientBase, r: GateStateRow): Promise<void> {
  await client.query({ name: 'agua.devices.gate', text: 'UPDATE devices SET gate_state = $1 WHERE id = $2', values: [r.state, r.deviceId] });
}

/**
 * lastSeen of many devices, only forward; the rows are locked in id order (byte order) as the
 * readings' statement takes them, so the two never wait on each other in a cycle.
 */
export async function writeLastSeen(client: pg.ClientBase, rows: LastSeenRow[]): Promise<void> {
  await client.query({
    name: 'agua.devices.last_seen',
    text: `UPDATE devices AS d SET last_seen_ms = GREATEST(d.last_seen_ms, n.ms)
           FROM json_to_recordset($1) AS n(id text, ms bigint),
             (SELECT id FROM devices WHERE id IN (SELECT id FROM json_to_recordset($1) AS k(id text)) ORDER BY id COLLATE "C" FOR NO KEY UPDATE) AS locked
           WHERE d.id = n.id AND d.id = locked.id`,
    values: [JSON.stringify(rows.map((r) => ({ id: r.deviceId, ms: r.lastSeenMs })))],
  });
}
