import type BetterSqlite3 from 'better-sqlite3';
import { DUPLICATE_WINDOW_MS } from '@agua/shared';
import { newestPerDevice } from '../current-readings';
import type { ReadingRow } from '../rows';
import { SeqRuns, type SeqRun } from '../seq-runs';
import { SqliteDeviceStateWriter } from './device-state.sqlite';

/** Readings per multi-row INSERT: one statement step instead of 64 (7 parameters each). */
const ROWS_PER_INSERT = 64;
const READING_COLUMNS = '(device_id, ts_ms, value_num, value_text, status, received_ms, raw_num)';
const PARAMS = 7;

/**
 * The ingest hot path, on SQLite (run on its own thread: sqlite-ingest-store.ts): one
 * transaction writes many readings (group commit), with
 * prepared multi-row statements. Deduplication is decided in memory (SeqRuns) and its runs are
 * stored in the same transaction, so that what is acknowledged and what is remembered as seen
 * survive a crash together. Returns, for each reading, whether it was new (false = duplicate).
 */
export class SqliteReadingsWriter {
  private readonly runs = new SeqRuns();
  private readonly insertMany: BetterSqlite3.Statement;
  private readonly insertOne: BetterSqlite3.Statement;
  private readonly currentReadings: SqliteDeviceStateWriter;
  private readonly insertRun: BetterSqlite3.Statement;
  private readonly updateRun: BetterSqlite3.Statement;
  private readonly deleteRunsBefore: BetterSqlite3.Statement;
  private readonly deleteRunsOf: BetterSqlite3.Statement;
  private readonly writeAll: (items: ReadingRow[], alsoInTransaction: () => void) => boolean[];

  constructor(sqlite: BetterSqlite3.Database, nowMs = Date.now()) {
    const oneRow = '(?, ?, ?, ?, ?, ?, ?)';
    this.insertMany = sqlite.prepare(`INSERT INTO readings ${READING_COLUMNS} VALUES ${Array(ROWS_PER_INSERT).fill(oneRow).join(', ')}`);
    this.insertOne = sqlite.prepare(`INSERT INTO readings ${READING_COLUMNS} VALUES ${oneRow}`);
    this.currentReadings = new SqliteDeviceStateWriter(sqlite);
    this.insertRun = sqlite.prepare(
      `INSERT INTO telemetry_seq_runs (device_id, boot, seq_from, seq_to, first_received_ms, last_received_ms)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.updateRun = sqlite.prepare('UPDATE telemetry_seq_runs SET seq_to = ?, last_received_ms = ? WHERE id = ?');
    this.deleteRunsBefore = sqlite.prepare('DELETE FROM telemetry_seq_runs WHERE last_received_ms < ?');
    this.deleteRunsOf = sqlite.prepare('DELETE FROM telemetry_seq_runs WHERE device_id = ?');
    this.writeAll = sqlite.transaction((items: ReadingRow[], alsoInTransaction: () => void) => {
      const fresh = this.writeInTransaction(items);
      alsoInTransaction();
      return fresh;
    });
    this.loadRuns(sqlite, nowMs);
  }

  /**
   * Writes all readings in one committed transaction, with whatever else must commit with them
   * (the alarm changes the readings cause): both or neither.
   */
  write(items: ReadingRow[], alsoInTransaction: () => void = () => undefined): boolean[] {
    try {
      const fresh = this.writeAll(items, alsoInTransaction);
      this.runs.commit();
      return fresh;
    } catch (err) {
      this.runs.rollback();
      throw err;
    }
  }

  /** Forgets seqs whose 24 h window has passed, in memory and on disk. */
  pruneExpiredSeqs(nowMs = Date.now()): void {
    this.runs.prune(nowMs);
    this.deleteRunsBefore.run(nowMs - DUPLICATE_WINDOW_MS);
  }

  /** Forgets a device's seqs (its history was purged). */
  forgetDevice(deviceId: string): void {
    this.deleteRunsOf.run(deviceId);
    this.runs.forgetDevice(deviceId);
  }

  private writeInTransaction(items: ReadingRow[]): boolean[] {
    const fresh = items.map((r) => r.seq === null || this.runs.claim(r.deviceId, r.boot, r.seq, r.receivedMs));
    this.insertReadings(items.filter((_, i) => fresh[i]));
    this.updateCurrentReadings(items, fresh);
    this.storeRuns(this.runs.takeDirty());
    return fresh;
  }

  private insertReadings(rows: ReadingRow[]): void {
    const params: unknown[] = new Array(ROWS_PER_INSERT * PARAMS);
    let i = 0;
    for (; i + ROWS_PER_INSERT <= rows.length; i += ROWS_PER_INSERT) {
      for (let k = 0; k < ROWS_PER_INSERT; k++) {
        const r = rows[i + k]!;
        const p = k * PARAMS;
        params[p] = r.deviceId;
        params[p + 1] = r.tsMs;
        params[p + 2] = r.valueNum;
        params[p + 3] = r.valueText;
        params[p + 4] = r.status;
        params[p + 5] = r.receivedMs;
        params[p + 6] = r.rawNum;
      }
      this.insertMany.run(params);
    }
    for (; i < rows.length; i++) {
      const r = rows[i]!;
      this.insertOne.run(r.deviceId, r.tsMs, r.valueNum, r.valueText, r.status, r.receivedMs, r.rawNum);
    }
  }

  /** Each device's newest new reading goes to the device's state (which keeps it if newer than what it has). */
  private updateCurrentReadings(items: ReadingRow[], fresh: boolean[]): void {
    for (const r of newestPerDevice(items, fresh)) this.currentReadings.write(r);
  }

  private storeRuns(runs: SeqRun[]): void {
    for (const run of runs) {
      if (run.id === null) {
        const { lastInsertRowid } = this.insertRun.run(run.deviceId, run.boot, run.from, run.to, run.firstMs, run.lastMs);
        this.runs.stored(run, Number(lastInsertRowid));
      } else {
        this.updateRun.run(run.to, run.lastMs, run.id);
      }
    }
  }

  private loadRuns(sqlite: BetterSqlite3.Database, nowMs: number): void {
    const rows = sqlite
      .prepare(
        `SELECT id, device_id AS deviceId, boot, seq_from AS "from", seq_to AS "to", first_received_ms AS firstMs,
                last_received_ms AS lastMs
         FROM telemetry_seq_runs WHERE last_received_ms >= ?`,
      )
      .all(nowMs - DUPLICATE_WINDOW_MS) as SeqRun[];
    this.runs.load(rows);
  }
}
