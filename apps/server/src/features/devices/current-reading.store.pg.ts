/**
 * CurrentReadingStore on PostgreSQL: the statement that moves devices' current reading, gate state
 * and lastSeen, as a part of the readings writer's one statement per commit (embedded there as a
 * data-modifying CTE, so a reading and the state it caused commit together, in one round trip).
 * `newest` names a relation with each device's newest new reading of the commit: device_id, ts_ms,
 * value_num, value_text, status, heard. The same rules as on SQLite: the current reading only
 * moves forward in time (same time or later); lastSeen only forward, and GREATEST ignores the
 * NULL of a reading not heard from the device.
 */
export function updateCurrentReadings(newest: string): string {
  return `UPDATE devices AS d
  SET reading_value_num = n.value_num, reading_value_text = n.value_text, reading_status = n.status, reading_ts_ms = n.ts_ms,
      gate_state = COALESCE(n.value_text, d.gate_state), last_seen_ms = GREATEST(d.last_seen_ms, n.heard)
  FROM ${newest} AS n
  WHERE d.id = n.device_id AND (d.reading_ts_ms IS NULL OR d.reading_ts_ms <= n.ts_ms)`;
}
