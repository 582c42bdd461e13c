import type BetterSqlite3 from 'better-sqlite3';
import type { CurrentReadingRow } from '../rows';

/**
 * The stored side of a device's live state that readings move: current reading, gate state and
 * lastSeen. The ingest store is the only writer of these columns; the readings writer runs this
 * on its own connection, inside the transaction that stores the readings, so a
 * reading and the state it caused are committed together or not at all.
 */
export class SqliteCurrentReadingWriter {
  private readonly update: BetterSqlite3.Statement;

  constructor(sqlite: BetterSqlite3.Database) {
    // The current reading only moves forward in time (shared `isNewerReading`: same time or later);
    // a late batch fills history only. lastSeen only moves forward, and NULL leaves it as it was.
    this.update = sqlite.prepare(
      `UPDATE devices SET reading_value_num = ?, reading_value_text = ?, reading_status = ?, reading_ts_ms = ?,
         gate_state = COALESCE(?, gate_state), last_seen_ms = COALESCE(MAX(last_seen_ms, ?), last_seen_ms, ?)
       WHERE id = ? AND (reading_ts_ms IS NULL OR reading_ts_ms <= ?)`,
    );
  }

  /** Must run inside the readings' transaction. */
  write(r: CurrentReadingRow): void {
    this.update.run(r.valueNum, r.valueText, r.status, r.tsMs, r.valueText, r.heardMs, r.heardMs, r.deviceId, r.tsMs);
  }
}
