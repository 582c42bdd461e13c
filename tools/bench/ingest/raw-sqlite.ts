/**
 * The storage ceiling of the batch figure: plain better-sqlite3, as a naive writer would use it,
 * storing the rows the batch load sends. A fresh file in WAL mode with synchronous=FULL, a
 * readings table of the server's shape (its migrations: 001 + 002 + 003), one prepared one-row
 * INSERT per reading and one transaction per batch. Runs in the bench process, synchronously
 * (the event loop is blocked for the run), while the batch figure's server idles.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { levelStatus } from '@agua/shared';
import { type BenchDevice, type BenchReading, type LevelPattern, levelValue, nextBatch } from './devices';
import { percentiles } from './stats';

/** The server's readings table and its one index, as its migrations leave them. */
const SCHEMA = `
  CREATE TABLE readings (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    device_id TEXT NOT NULL,
    ts_ms BIGINT NOT NULL,
    value_num DOUBLE PRECISION,
    value_text TEXT,
    status TEXT NOT NULL,
    received_ms BIGINT NOT NULL
  );
  CREATE INDEX readings_device_ts_value ON readings (device_id, ts_ms, value_num);
`;

/** The bench devices' configuration (devices.ts registers them with maxLevel 5). */
const THRESHOLDS = { maxLevel: 5 };

export interface RawSqliteResult {
  durationS: number;
  readings: number;
  readingsPerS: number;
  /** One transaction (batch) from BEGIN to the end of COMMIT, ms. */
  p50: number;
  p99: number;
}

export class RawSqliteWriter {
  private readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-bench-raw-sqlite-'));
  private readonly db: Database.Database;
  private readonly writeBatch: (deviceId: string, readings: BenchReading[], receivedMs: number) => void;
  private next = 0;

  /** `devices` take turns, one batch of `batchSize` each, like the batch load's connections. */
  constructor(
    private readonly devices: BenchDevice[],
    private readonly batchSize: number,
    /** The batch load's levels, so that the rows are the same. */
    private readonly level: LevelPattern = levelValue,
  ) {
    this.db = new Database(path.join(this.dir, 'raw.db'));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.exec(SCHEMA);
    const insert = this.db.prepare('INSERT INTO readings (device_id, ts_ms, value_num, value_text, status, received_ms) VALUES (?, ?, ?, NULL, ?, ?)');
    this.writeBatch = this.db.transaction((deviceId: string, readings: BenchReading[], receivedMs: number) => {
      for (const r of readings) insert.run(deviceId, r.tsMs, r.value, levelStatus(r.value, THRESHOLDS), receivedMs);
    });
  }

  /** Writes batches back to back for `durationS` seconds. */
  run(durationS: number): RawSqliteResult {
    const times: number[] = [];
    let readings = 0;
    const start = performance.now();
    const end = start + durationS * 1000;
    while (performance.now() < end) {
      const d = this.devices[this.next++ % this.devices.length]!;
      const now = Date.now();
      const batch = nextBatch(d, this.batchSize, now, this.level);
      const t = performance.now();
      this.writeBatch(d.id, batch, now);
      times.push(performance.now() - t);
      readings += batch.length;
    }
    const seconds = (performance.now() - start) / 1000;
    const [p50, p99] = percentiles(times, [50, 99]);
    return { durationS: seconds, readings, readingsPerS: readings / seconds, p50: p50!, p99: p99! };
  }

  close(): void {
    this.db.close();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
