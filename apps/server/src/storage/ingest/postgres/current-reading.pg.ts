/**
 * SqliteCurrentReadingWriter on PostgreSQL: the statement that moves devices' current reading, gate state
 * and lastSeen, embedded in the readings writer's last statement of each commit (so that a reading
 * and the state it caused commit together).
 * `newest` names a relation with each device's newest new reading of the commit: device_id, ts_ms,
 * value_num, value_text, status, heard. The same rules as on SQLite: the current reading only
 * moves forward in time (same time or later); lastSeen only forward, and GREATEST ignores the
 * NULL of a reading not heard from the device. The rows are locked first, in id order (byte order,
 * as the lastSeen flush sorts them), and held until the writer's COMMIT: two transactions taking
 * them in different orders would each wait for the other until PostgreSQL's deadlock check (1 s).
 */
export function updateCurrentReadings(newest: string): string {
  return `UPDATE devices AS d
  SET reading_value_num = n.value_num, reading_value_text = n.value_text, reading_status = n.status, reading_ts_ms = n.ts_ms,
      gate_state = COALESCE(n.value_text, d.gate_state), last_seen_ms = GREATEST(d.last_seen_ms, n.heard)
  FROM ${newest} AS n,
    (SELECT id FROM devices WHERE id IN (SELECT device_id FROM ${newest}) ORDER BY id COLLATE "C" FOR NO KEY UPDATE) AS locked
  WHERE d.id = n.device_id AND d.id = locked.id AND (d.reading_ts_ms IS NULL OR d.reading_ts_ms <= n.ts_ms)`;
}
