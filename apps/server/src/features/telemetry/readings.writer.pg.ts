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

/** Rows deleted per statement when their window has passed: short locks, ingest goes on between. */
const PRUNE_CHUNK = 10_000;

/**
 * Locks the (device, boot) rows of the seqs about to be claimed, making the ones not seen yet, and
 * returns their runs. `ON CONFLICT DO UPDATE` locks and reads the newest committed version of a row
 * even when it is newer than the statement's snapshot, so a second instance claiming the same
 * (device, boot) waits here for the first one's commit and then sees its runs. Rows are taken in
 * one order (device, boot) so that two commits never wait for each other in a circle.
 */
const LOCK_BOOTS = `
INSERT INTO telemetry_seq_boots AS t (device_id, boot, runs, last_received_ms)
SELECT d, b, '{}', 0 FROM unnest($1::text[], $2::text[]) AS u(d, b) ORDER BY d, b
ON CONFLICT (device_id, boot) DO UPDATE SET last_received_ms = t.last_received_ms
RETURNING device_id, boot, runs`;

/**
 * The readings' columns, in the order of the COPY rows below. Binary rather than text: neither
 * side turns numbers into digits and back (in one comparison, storage alone, 1,000-row COPYs:
 * PostgreSQL 5.5-6.5 against 7.1-7.4 µs per row), and no character of a value needs escaping.
 */
const COPY_READINGS = 'COPY readings (device_id, ts_ms, value_num, value_text, status, received_ms) FROM STDIN (FORMAT binary)';

/**
 * After the readings: the claimed (device, boot) rows get their new runs, and each device's newest
 * new reading goes to the devices feature's current-reading update, in one statement. Both travel
 * as JSON (short keys): one parameter each, parsed natively on both sides.
 */
const AFTER_READINGS = `
WITH runs AS (
  UPDATE telemetry_seq_boots AS t SET runs = u.r, last_received_ms = u.l
  FROM json_to_recordset($1::json) AS u(d text, b text, r bigint[], l bigint)
  WHERE t.device_id = u.d AND t.boot = u.b
),
newest AS (
  SELECT * FROM json_to_recordset($2::json) AS n(device_id text, ts_ms bigint, value_num float8, value_text text, status text, heard bigint)
)
${updateCurrentReadings('newest')}`;

interface SeqBootRow {
  device_id: string;
  boot: string;
  runs: (string | number)[];
}

/**
 * The ingest hot path on PostgreSQL, inside a transaction the caller opened (PostgresStore):
 * 1. the (device, boot) rows of the batch's seqs are locked and read (LOCK_BOOTS);
 * 2. each seq is claimed against those runs in memory, as on SQLite (SeqRuns): new or duplicate;
 * 3. the new readings go in by one binary `COPY` (far less of PostgreSQL's work per row than an INSERT);
 * 4. the runs and the devices' current readings are updated (AFTER_READINGS).
 * Deduplication holds across instances because the runs live in the locked rows, not in any
 * instance's memory: nothing is cached between transactions. Returns, for each reading, whether
 * it was new (false = duplicate).
 */
export class PgReadingsWriter {
  constructor(private readonly windowMs = DUPLICATE_WINDOW_MS) {}

  async write(client: pg.ClientBase, items: ReadingToStore[]): Promise<boolean[]> {
    const boots = items.map((r) => (r.seq === null ? '' : storableBoot(r.boot)));
    const runs = await this.lockRuns(client, items, boots);
    const fresh = items.map((r, i) => r.seq === null || runs.claim(r.deviceId, boots[i]!, r.seq, r.receivedMs));
    await copyReadings(client, items, fresh);
    const changedRuns = runsToStore(runs);
    const newest = newestPerDevice(items, fresh);
    if (changedRuns.length > 0 || newest.length > 0) {
      await client.query({
        name: 'agua.readings.after',
        text: AFTER_READINGS,
        values: [
          JSON.stringify(changedRuns),
          JSON.stringify(newest.map((n) => ({ device_id: n.deviceId, ts_ms: n.tsMs, value_num: n.valueNum, value_text: n.valueText, status: n.status, heard: n.heardMs }))),
        ],
      });
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

  /** Step 1: the batch's (device, boot) rows, locked, as runs to claim against. */
  private async lockRuns(client: pg.ClientBase, items: ReadingToStore[], boots: string[]): Promise<SeqRuns> {
    const runs = new SeqRuns(this.windowMs);
    const keys = new Map<string, [string, string]>();
    items.forEach((r, i) => {
      if (r.seq !== null) keys.set(`${r.deviceId}\u0000${boots[i]}`, [r.deviceId, boots[i]!]);
    });
    if (keys.size === 0) return runs;
    const deviceIds: string[] = [];
    const bootIds: string[] = [];
    for (const [deviceId, boot] of keys.values()) {
      deviceIds.push(deviceId);
      bootIds.push(boot);
    }
    const { rows } = await client.query<SeqBootRow>({ name: 'agua.readings.lock', text: LOCK_BOOTS, values: [deviceIds, bootIds] });
    runs.load(rows.flatMap(unflatten));
    return runs;
  }
}

/**
 * The claimed rows whose runs changed, as AFTER_READINGS takes them. Runs past their window stay
 * until a new run of the same boot drops them (SeqRuns) or the whole row expires; claims already
 * look past them.
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
async function copyReadings(client: pg.ClientBase, items: ReadingToStore[], fresh: boolean[]): Promise<void> {
  const rows = items.filter((_, i) => fresh[i]);
  if (rows.length === 0) return;
  const stream = client.query(copyFrom(COPY_READINGS));
  stream.end(binaryCopy(rows));
  await finished(stream);
}

/** PostgreSQL's binary COPY signature, flags and header extension length. */
const COPY_HEADER = Buffer.from('PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0', 'latin1');
/** Per row: the field count, six field lengths, three 8-byte numbers (the texts are added to it). */
const FIXED_ROW_BYTES = 2 + 6 * 4 + 3 * 8;

/** Rows in COPY's binary format: each field its length (-1 for NULL) and its bytes, numbers big-endian. */
function binaryCopy(rows: ReadingToStore[]): Buffer {
  let size = COPY_HEADER.length + 2;
  for (const r of rows) size += FIXED_ROW_BYTES + 3 * (r.deviceId.length + r.status.length + (r.valueText?.length ?? 0));
  const buf = Buffer.allocUnsafe(size);
  let o = COPY_HEADER.copy(buf, 0);
  for (const r of rows) {
    o = buf.writeInt16BE(6, o);
    o = writeText(buf, o, r.deviceId);
    o = writeInt8(buf, o, r.tsMs);
    if (r.valueNum === null) o = buf.writeInt32BE(-1, o);
    else o = buf.writeDoubleBE(r.valueNum, buf.writeInt32BE(8, o));
    o = r.valueText === null ? buf.writeInt32BE(-1, o) : writeText(buf, o, r.valueText);
    o = writeText(buf, o, r.status);
    o = writeInt8(buf, o, r.receivedMs);
  }
  o = buf.writeInt16BE(-1, o);
  return buf.subarray(0, o);
}

function writeText(buf: Buffer, o: number, text: string): number {
  const length = buf.write(text, o + 4);
  buf.writeInt32BE(length, o);
  return o + 4 + length;
}

/** A bigint column's 8 bytes from a safe integer (two's complement, as PostgreSQL reads it). */
function writeInt8(buf: Buffer, o: number, n: number): number {
  const high = Math.floor(n / 0x1_0000_0000);
  buf.writeInt32BE(8, o);
  buf.writeInt32BE(high, o + 4);
  buf.writeUInt32BE(n - high * 0x1_0000_0000, o + 8);
  return o + 12;
}

/** A stored row's flat runs (four numbers each) as SeqRuns holds them. */
function unflatten(row: SeqBootRow): SeqRun[] {
  const out: SeqRun[] = [];
  for (let k = 0; k + 3 < row.runs.length; k += 4) {
    out.push({ id: null, deviceId: row.device_id, boot: row.boot, from: Number(row.runs[k]), to: Number(row.runs[k + 1]), firstMs: Number(row.runs[k + 2]), lastMs: Number(row.runs[k + 3]) });
  }
  return out;
}
