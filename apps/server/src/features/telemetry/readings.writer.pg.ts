import { finished } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DUPLICATE_WINDOW_MS } from '@agua/shared';
import { updateCurrentReadings } from '../devices/current-reading.store.pg';
import { newestPerDevice, type ReadingToStore } from './readings.writer';
import { SeqRuns, type SeqRun } from './seq-runs';

/**
 * A boot as PostgreSQL keeps it, one-to-one: its text cannot hold U+0000, and the driver's UTF-8
 * would turn every lone surrogate into the same U+FFFD — two boots would become one, and the
 * second's readings duplicates. The protocol forbids neither in this opaque field, so both are
 * escaped, backslashes first.
 */
function storableBoot(boot: string): string {
  if (!/[\\\p{Surrogate}]/u.test(boot) && !boot.includes('\u0000')) return boot;
  return boot
    .replace(/\\/g, '\\\\')
    .replaceAll('\u0000', '\\0')
    .replace(/\p{Surrogate}/gu, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

/** Each reading's boot as stored ('' without a seq), escaped once per run of equal boots. */
function storableBoots(items: ReadingToStore[]): string[] {
  let raw: string | null = null;
  let stored = '';
  return items.map((r) => {
    if (r.seq === null) return '';
    if (r.boot !== raw) stored = storableBoot((raw = r.boot));
    return stored;
  });
}

/** Rows deleted per statement when their window has passed: short locks, ingest goes on between. */
const PRUNE_CHUNK = 10_000;

/**
 * The statements of a commit, prepared once per connection as SQL-level prepared statements so
 * that they can travel in one simple-protocol message with the transaction's BEGIN or COMMIT (see
 * PgReadingsWriter): planned once, and no round trip of their own. Each takes JSON (short keys),
 * parsed natively on both sides, passed as a literal escaped by the driver's `escapeLiteral`.
 *
 * agua_seq_lock locks the (device, boot) rows of the seqs about to be claimed, making the ones not
 * seen yet, and returns their runs. `ON CONFLICT DO UPDATE` locks and reads the newest committed
 * version of a row even when it is newer than the statement's snapshot, so a second instance
 * claiming the same (device, boot) waits here for the first one's commit and then sees its runs.
 * Rows are taken in one order (device, boot), so two commits never wait for each other in a circle.
 *
 * agua_readings_after stores the claimed rows' new runs, inserts the new readings of a small
 * group (a large one went by COPY just before: `[]` here), and moves each device's current
 * reading (the devices feature's SQL).
 */
const PREPARE = `
PREPARE agua_seq_lock(json) AS
INSERT INTO telemetry_seq_boots AS t (device_id, boot, runs, last_received_ms)
SELECT d, b, '{}', 0 FROM json_to_recordset($1) AS u(d text, b text) ORDER BY d, b
ON CONFLICT (device_id, boot) DO UPDATE SET last_received_ms = t.last_received_ms
RETURNING device_id, boot, runs;

PREPARE agua_readings_after(json, json, json) AS
WITH runs AS (
  UPDATE telemetry_seq_boots AS t SET runs = u.r, last_received_ms = u.l
  FROM json_to_recordset($1) AS u(d text, b text, r bigint[], l bigint)
  WHERE t.device_id = u.d AND t.boot = u.b
),
inserted AS (
  INSERT INTO readings (device_id, ts_ms, value_num, value_text, status, received_ms)
  SELECT d, t, v, x, s, r FROM json_to_recordset($2) AS n(d text, t bigint, v float8, x text, s text, r bigint)
),
newest AS (
  SELECT * FROM json_to_recordset($3) AS n(device_id text, ts_ms bigint, value_num float8, value_text text, status text, heard bigint)
)
${updateCurrentReadings('newest')};`;

/** Connections on which PREPARE ran, whichever writer ran it (a connection that failed is never reused). */
const prepared = new WeakSet<pg.ClientBase>();

/**
 * From this many new readings a commit sends them by COPY, one round trip more but far less of
 * PostgreSQL's work per row; fewer ride in agua_readings_after's JSON.
 */
export const COPY_FROM_ROWS = 64;

/**
 * The readings' columns, in the order of the COPY rows below. Binary rather than text: neither
 * side turns numbers into digits and back (in one comparison, storage alone, 1,000-row COPYs:
 * PostgreSQL 5.5-6.5 against 7.1-7.4 µs per row), and no character of a value needs escaping.
 */
const COPY_READINGS = 'COPY readings (device_id, ts_ms, value_num, value_text, status, received_ms) FROM STDIN (FORMAT binary)';

interface SeqBootRow {
  device_id: string;
  boot: string;
  runs: (string | number)[];
}

/**
 * The ingest hot path on PostgreSQL, as one transaction on a client of the pool:
 * 1. BEGIN, and the (device, boot) rows of the batch's seqs locked and read (agua_seq_lock);
 * 2. each seq claimed against those runs in memory, as on SQLite (SeqRuns): new or duplicate;
 * 3. the new readings by one binary `COPY` when there are many (COPY_FROM_ROWS);
 * 4. the runs, the new readings when few, the devices' current readings (agua_readings_after),
 *    then what else must commit with them (alarm changes), and COMMIT.
 * Steps 1 and 4 are one message each (BEGIN and COMMIT ride with them): a small group costs two
 * round trips, a large one three. Deduplication holds across instances because the runs live in
 * the locked rows, not in any instance's memory: nothing is cached between transactions. On a
 * failure the caller rolls back. Returns, for each reading, whether it was new (false = duplicate).
 */
export class PgReadingsWriter {
  constructor(private readonly windowMs = DUPLICATE_WINDOW_MS) {}

  async write(client: pg.ClientBase, items: ReadingToStore[], alsoInTransaction?: (client: pg.ClientBase) => Promise<void>): Promise<boolean[]> {
    if (!prepared.has(client)) {
      await client.query(PREPARE);
      prepared.add(client);
    }
    const boots = storableBoots(items);
    const runs = await this.begin(client, items, boots);
    const fresh = items.map((r, i) => r.seq === null || runs.claim(r.deviceId, boots[i]!, r.seq, r.receivedMs));
    const rows = items.filter((_, i) => fresh[i]);
    const byCopy = rows.length >= COPY_FROM_ROWS;
    if (byCopy) await copyReadings(client, rows);
    const after = `EXECUTE agua_readings_after(${[
      JSON.stringify(runsToStore(runs)),
      byCopy ? '[]' : JSON.stringify(rows.map((r) => ({ d: r.deviceId, t: r.tsMs, v: r.valueNum, x: r.valueText, s: r.status, r: r.receivedMs }))),
      JSON.stringify(newestPerDevice(items, fresh).map((n) => ({ device_id: n.deviceId, ts_ms: n.tsMs, value_num: n.valueNum, value_text: n.valueText, status: n.status, heard: n.heardMs }))),
    ]
      .map((json) => client.escapeLiteral(json))
      .join(', ')})`;
    if (alsoInTransaction) {
      await client.query(after);
      await alsoInTransaction(client);
      await client.query('COMMIT');
    } else {
      await client.query(`${after}; COMMIT`);
    }
    return fresh;
  }

  /** Forgets (device, boot) rows whose every run has passed its 24 h window. */
  async pruneExpiredSeqs(pool: pg.Pool, nowMs = Date.now()): Promise<number> {
    let total = 0;
    for (;;) {
      // The outer condition is checked again on a row a writer changed meanwhile (it waited for its lock).
      const res = await pool.query(
        `DELETE FROM telemetry_seq_boots WHERE last_received_ms < $1
           AND ctid = ANY (ARRAY(SELECT ctid FROM telemetry_seq_boots WHERE last_received_ms < $1 LIMIT $2))`,
        [nowMs - this.windowMs, PRUNE_CHUNK],
      );
      total += res.rowCount ?? 0;
      if ((res.rowCount ?? 0) < PRUNE_CHUNK) return total;
    }
  }

  /** Forgets a device's seqs (its history was purged). */
  async forgetDevice(pool: pg.Pool, deviceId: string): Promise<void> {
    await pool.query('DELETE FROM telemetry_seq_boots WHERE device_id = $1', [deviceId]);
  }

  /** Step 1: BEGIN, and the batch's (device, boot) rows locked, as runs to claim against. */
  private async begin(client: pg.ClientBase, items: ReadingToStore[], boots: string[]): Promise<SeqRuns> {
    const runs = new SeqRuns(this.windowMs);
    const keys = new Map<string, { d: string; b: string }>();
    let last: ReadingToStore | null = null;
    items.forEach((r, i) => {
      // Readings come in runs of one device and boot: one key per run, not per reading.
      if (r.seq === null || (last !== null && r.deviceId === last.deviceId && r.boot === last.boot)) return;
      last = r;
      keys.set(`${r.deviceId}\u0000${boots[i]}`, { d: r.deviceId, b: boots[i]! });
    });
    if (keys.size === 0) {
      await client.query('BEGIN');
      return runs;
    }
    // A message of two statements answers with one result each.
    const results = (await client.query(`BEGIN; EXECUTE agua_seq_lock(${client.escapeLiteral(JSON.stringify([...keys.values()]))})`)) as unknown as pg.QueryResult<SeqBootRow>[];
    runs.load(results[1]!.rows.flatMap(unflatten));
    return runs;
  }
}

/**
 * The claimed rows whose runs changed, as agua_readings_after takes them. Runs past their window
 * stay until a new run of the same boot drops them (SeqRuns) or the whole row expires; claims
 * already look past them.
 */
function runsToStore(runs: SeqRuns): { d: string; b: string; r: number[]; l: number }[] {
  const keys = new Map<string, SeqRun>();
  for (const run of runs.takeDirty()) keys.set(`${run.deviceId}\u0000${run.boot}`, run);
  return [...keys.values()].map(({ deviceId, boot }) => {
    const list = runs.runsFor(deviceId, boot);
    return { d: deviceId, b: boot, r: list.flatMap((run) => [run.from, run.to, run.firstMs, run.lastMs]), l: Math.max(...list.map((run) => run.lastMs)) };
  });
}

/** Step 3: the new readings, in the batch's order, by one COPY. */
async function copyReadings(client: pg.ClientBase, rows: ReadingToStore[]): Promise<void> {
  const stream = client.query(copyFrom(COPY_READINGS));
  stream.end(binaryCopy(rows));
  await finished(stream);
}

/** PostgreSQL's binary COPY signature, flags and header extension length. */
const COPY_HEADER = Buffer.from('PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0', 'latin1');
/** Per row: the field count, six field lengths, three 8-byte numbers (the texts' bytes are added to it). */
const FIXED_ROW_BYTES = 2 + 6 * 4 + 3 * 8;

/** Rows in COPY's binary format: each field its length (-1 for NULL) and its bytes, numbers big-endian. */
function binaryCopy(rows: ReadingToStore[]): Buffer {
  // Each distinct text (device ids, statuses, gate states: a handful per group) is encoded once.
  const encoded = new Map<string, Buffer>();
  const bytesOf = (text: string): Buffer => {
    let bytes = encoded.get(text);
    if (bytes === undefined) encoded.set(text, (bytes = Buffer.from(text)));
    return bytes;
  };
  let size = COPY_HEADER.length + 2;
  for (const r of rows) size += FIXED_ROW_BYTES + bytesOf(r.deviceId).length + bytesOf(r.status).length + (r.valueText === null ? 0 : bytesOf(r.valueText).length);
  const buf = Buffer.allocUnsafe(size);
  // DataView's setters are inlined by V8; Buffer's write*BE check their arguments on every call.
  const view = new DataView(buf.buffer, buf.byteOffset, buf.length);
  let o = COPY_HEADER.copy(buf, 0);
  const writeBytes = (bytes: Buffer): void => {
    view.setInt32(o, bytes.length);
    buf.set(bytes, o + 4);
    o += 4 + bytes.length;
  };
  const writeInt8 = (n: number): void => {
    // A bigint column's 8 bytes from a safe integer, two's complement as PostgreSQL reads it.
    const high = Math.floor(n / 0x1_0000_0000);
    view.setInt32(o, 8);
    view.setInt32(o + 4, high);
    view.setUint32(o + 8, n - high * 0x1_0000_0000);
    o += 12;
  };
  for (const r of rows) {
    view.setInt16(o, 6);
    o += 2;
    writeBytes(bytesOf(r.deviceId));
    writeInt8(r.tsMs);
    if (r.valueNum === null) {
      view.setInt32(o, -1);
      o += 4;
    } else {
      view.setInt32(o, 8);
      view.setFloat64(o + 4, r.valueNum);
      o += 12;
    }
    if (r.valueText === null) {
      view.setInt32(o, -1);
      o += 4;
    } else {
      writeBytes(bytesOf(r.valueText));
    }
    writeBytes(bytesOf(r.status));
    writeInt8(r.receivedMs);
  }
  view.setInt16(o, -1);
  return buf.subarray(0, o + 2);
}

/** A stored row's flat runs (four numbers each) as SeqRuns holds them. */
function unflatten(row: SeqBootRow): SeqRun[] {
  const out: SeqRun[] = [];
  for (let k = 0; k + 3 < row.runs.length; k += 4) {
    out.push({ id: null, deviceId: row.device_id, boot: row.boot, from: Number(row.runs[k]), to: Number(row.runs[k + 1]), firstMs: Number(row.runs[k + 2]), lastMs: Number(row.runs[k + 3]) });
  }
  return out;
}
