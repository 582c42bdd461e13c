import type BetterSqlite3 from 'better-sqlite3';
import { DUPLICATE_WINDOW_MS, type ReadingStatus } from '@agua/shared';

export interface ReadingToStore {
  deviceId: string;
  tsMs: number;
  valueNum: number | null;
  valueText: string | null;
  status: ReadingStatus;
  seq: number | null;
  boot: string;
  receivedMs: number;
}

/**
 * The ingest hot path, on SQLite: one transaction writes many readings (group commit), with
 * prepared statements. Returns, for each reading, whether it was new (false = duplicate).
 */
export class SqliteReadingsWriter {
  private readonly claimSeq: BetterSqlite3.Statement;
  private readonly insert: BetterSqlite3.Statement;
  private readonly updateCurrent: BetterSqlite3.Statement;
  private readonly pruneDedupe: BetterSqlite3.Statement;
  private readonly writeAll: (items: ReadingToStore[]) => boolean[];

  constructor(sqlite: BetterSqlite3.Database) {
    // A (device, boot, seq) seen within 24 h is a duplicate; an older claim is taken over.
    this.claimSeq = sqlite.prepare(
      `INSERT INTO telemetry_dedupe (device_id, boot, seq, received_ms) VALUES (?, ?, ?, ?)
       ON CONFLICT (device_id, boot, seq) DO UPDATE SET received_ms = excluded.received_ms
       WHERE telemetry_dedupe.received_ms < excluded.received_ms - ${DUPLICATE_WINDOW_MS}`,
    );
    this.insert = sqlite.prepare(
      'INSERT INTO readings (device_id, ts_ms, value_num, value_text, status, received_ms) VALUES (?, ?, ?, ?, ?, ?)',
    );
    // The current reading only moves forward in time: a late batch fills history only.
    this.updateCurrent = sqlite.prepare(
      `UPDATE devices SET reading_value_num = ?, reading_value_text = ?, reading_status = ?, reading_ts_ms = ?,
         gate_state = COALESCE(?, gate_state), last_seen_ms = MAX(COALESCE(last_seen_ms, 0), ?)
       WHERE id = ? AND (reading_ts_ms IS NULL OR reading_ts_ms <= ?)`,
    );
    this.pruneDedupe = sqlite.prepare('DELETE FROM telemetry_dedupe WHERE received_ms < ?');
    this.writeAll = sqlite.transaction((items: ReadingToStore[]) => {
      const fresh: boolean[] = [];
      const latest = new Map<string, ReadingToStore>();
      for (const r of items) {
        if (r.seq !== null && this.claimSeq.run(r.deviceId, r.boot, r.seq, r.receivedMs).changes === 0) {
          fresh.push(false);
          continue;
        }
        this.insert.run(r.deviceId, r.tsMs, r.valueNum, r.valueText, r.status, r.receivedMs);
        fresh.push(true);
        const prev = latest.get(r.deviceId);
        if (!prev || r.tsMs >= prev.tsMs) latest.set(r.deviceId, r);
      }
      for (const r of latest.values()) {
        this.updateCurrent.run(r.valueNum, r.valueText, r.status, r.tsMs, r.valueText, r.receivedMs, r.deviceId, r.tsMs);
      }
      return fresh;
    });
  }

  /** Writes all readings in one committed transaction. */
  write(items: ReadingToStore[]): boolean[] {
    return this.writeAll(items);
  }

  pruneDedupeBefore(cutoffMs: number): void {
    this.pruneDedupe.run(cutoffMs);
  }
}
