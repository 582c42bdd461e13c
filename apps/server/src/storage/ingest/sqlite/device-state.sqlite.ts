import type BetterSqlite3 from 'better-sqlite3';
import type { CurrentReadingRow, GateStateRow, LastSeenRow } from '../rows';

/**
 * The stored side of a device's live state: current reading, gate state and lastSeen. The ingest
 * store is the only writer of these columns. Readings move them inside the transaction that
 * stores the readings, so a reading and the state it caused are committed together or not at
 * all; an acknowledged gate state and the lastSeen flush have transactions of their own.
 */
export class SqliteDeviceStateWriter {
  private readonly update: BetterSqlite3.Statement;
  private readonly updateGate: BetterSqlite3.Statement;
  private readonly updateLastSeen: BetterSqlite3.Statement;
  private readonly lastSeenTx: (rows: LastSeenRow[]) => void;

  constructor(sqlite: BetterSqlite3.Database) {
    // The current reading only moves forward in time (shared `isNewerReading`: same time or later);
    // a late batch fills history only. lastSeen only moves forward, and NULL leaves it as it was.
    this.update = sqlite.prepare(
      `UPDATE devices SET reading_value_num = ?, reading_value_text = ?, reading_status = ?, reading_ts_ms = ?, reading_raw_num = ?,
         gate_state = COALESCE(?, gate_state), last_seen_ms = COALESCE(MAX(last_seen_ms, ?), last_seen_ms, ?)
       WHERE id = ? AND (reading_ts_ms IS NULL OR reading_ts_ms <= ?)`,
    );
    this.updateGate = sqlite.prepare('UPDATE devices SET gate_state = ? WHERE id = ?');
    this.updateLastSeen = sqlite.prepare('UPDATE devices SET last_seen_ms = COALESCE(MAX(last_seen_ms, ?), ?) WHERE id = ?');
    this.lastSeenTx = sqlite.transaction((rows: LastSeenRow[]) => {
      for (const r of rows) this.updateLastSeen.run(r.lastSeenMs, r.lastSeenMs, r.deviceId);
    });
  }

  writeGateState(r: GateStateRow): void {
    this.updateGate.run(r.state, r.deviceId);
  }

  /** lastSeen only moves forward, as with readings. */
  writeLastSeen(rows: LastSeenRow[]): void {
    this.lastSeenTx(rows);
  }

  /** Must run inside the readings' transaction. */
  write(r: CurrentReadingRow): void {
    this.update.run(r.valueNum, r.valueText, r.status, r.tsMs, r.rawNum, r.valueText, r.heardMs, r.heardMs, r.deviceId, r.tsMs);
  }
}
