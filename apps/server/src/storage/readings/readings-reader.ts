import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import type { ReadingStatus } from '@agua/shared';
import type { MsRange } from '../../lib/time';

/** A stored reading as history reads it back. */
export interface HistoryRow {
  id: number;
  tsMs: number;
  valueNum: number | null;
  valueText: string | null;
  status: ReadingStatus;
  rawNum: number | null;
}

/** Where a page or a batch starts: strictly after this (ts, id), in (ts, id) order. */
export interface RowPosition {
  tsMs: number;
  id: number;
}

// Open ends of a range, as bound values (far beyond any epoch-ms time).
const NO_LOWER = -8e15;
const NO_UPPER = 8e15;

/** The export's read path: a device's rows in keyset batches, one engine's way. */
export interface ReadingsReader {
  batchAfter(deviceId: string, range: MsRange, limit: number, after?: RowPosition): HistoryRow[] | Promise<HistoryRow[]>;
}

/**
 * The export's hot read path, on SQLite (the counterpart of the ingest store's SqliteReadingsWriter): one prepared
 * statement reads a device's rows in keyset batches. Through the query builder each batch would
 * build, compile and prepare its query anew: at a million rows that garbage alone raised the
 * server's peak memory by tens of MB.
 */
export class SqliteReadingsReader implements ReadingsReader {
  private readonly batch: BetterSqlite3.Statement<[string, number, number, number, number, number], HistoryRow>;

  constructor(sqlite: BetterSqlite3.Database) {
    // The range on (device_id, ts_ms) walks the index in (ts_ms, rowid) order, so no sort; the OR
    // only settles rows that share the last batch's ts.
    this.batch = sqlite.prepare<[string, number, number, number, number, number], HistoryRow>(
      `SELECT id, ts_ms AS tsMs, value_num AS valueNum, value_text AS valueText, status, raw_num AS rawNum
       FROM readings
       WHERE device_id = ? AND ts_ms >= ? AND ts_ms < ? AND (ts_ms > ? OR id > ?)
       ORDER BY ts_ms, id
       LIMIT ?`,
    );
  }

  batchAfter(deviceId: string, range: MsRange, limit: number, after?: RowPosition): HistoryRow[] {
    const lower = Math.max(range.fromMs ?? NO_LOWER, after?.tsMs ?? NO_LOWER);
    return this.batch.all(deviceId, lower, range.toMs ?? NO_UPPER, after?.tsMs ?? NO_LOWER, after?.id ?? 0, limit);
  }
}

/** The same batches on PostgreSQL, as one named prepared statement per connection. */
export class PgReadingsReader implements ReadingsReader {
  constructor(private readonly pool: pg.Pool) {}

  async batchAfter(deviceId: string, range: MsRange, limit: number, after?: RowPosition): Promise<HistoryRow[]> {
    const lower = Math.max(range.fromMs ?? NO_LOWER, after?.tsMs ?? NO_LOWER);
    const { rows } = await this.pool.query<HistoryRow>({
      name: 'agua.readings.batch-after',
      text: `SELECT id, ts_ms AS "tsMs", value_num AS "valueNum", value_text AS "valueText", status, raw_num AS "rawNum"
             FROM readings
             WHERE device_id = $1 AND ts_ms >= $2 AND ts_ms < $3 AND (ts_ms > $4 OR id > $5)
             ORDER BY ts_ms, id
             LIMIT $6`,
      values: [deviceId, lower, range.toMs ?? NO_UPPER, after?.tsMs ?? NO_LOWER, after?.id ?? 0, limit],
    });
    return rows;
  }
}
