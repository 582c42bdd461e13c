import { randomInt } from 'node:crypto';
import type pg from 'pg';
import { DUPLICATE_WINDOW_MS } from '@agua/shared';
import { copyIn } from '../../postgres/copy-in';
import { newestPerDevice } from '../current-readings';
import type { ReadingRow } from '../rows';
import { SeqRuns, type SeqRun } from '../seq-runs';
import { updateCurrentReadings } from './device-state.pg';

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
function storableBoots(items: ReadingRow[]): string[] {
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

/** The new readings of a small group ($2) and each device's newest ($3), as the statements below take them. */
const READINGS_AND_DEVICES = `inserted AS (
  INSERT INTO readings (device_id, ts_ms, value_num, value_text, status, received_ms, raw_num)
  SELECT d, t, v, x, s, r, w FROM json_to_recordset($2) AS n(d text, t bigint, v float8, x text, s text, r bigint, w float8)
),
newest AS (
  SELECT * FROM json_to_recordset($3) AS n(device_id text, ts_ms bigint, value_num float8, value_text text, status text, raw_num float8, heard bigint)
)`;

/**
 * The statements of a commit, prepared once per connection as SQL-level prepared statements so
 * that they can travel in one simple-protocol message with the transaction's BEGIN or COMMIT (see
 * PgReadingsWriter): planned once, and no round trip of their own. Each takes JSON (short keys),
 * parsed natively on both sides, passed as a literal escaped by the driver's `escapeLiteral`.
 *
 * agua_seq_lock locks the (device, boot) rows of the seqs about to be claimed, making the ones not
 * seen yet, and returns their runs and version. `ON CONFLICT DO UPDATE` locks and reads the newest
 * committed version of a row even when it is newer than the statement's snapshot, so a second
 * instance claiming the same (device, boot) waits here for the first one's commit and then sees
 * its runs. Rows are taken in one order (device, boot), so two commits never wait for each other
 * in a circle; every statement below takes them in that order too, before the device rows.
 *
 * agua_readings_after stores the claimed rows' new runs, inserts the new readings of a small
 * group (a large one went by COPY just before: `[]` here), and moves each device's current
 * reading (the devices feature's SQL).
 *
 * agua_readings_known does the same when the writer claimed against runs it remembers: each row
 * is written only if its version is still the one remembered, and unless every row was,
 * agua_seq_runs_unchanged fails the statement (40001, so nothing of it stays and PostgresIngestStore
 * writes the group again, reading the rows this time).
 * Data-modifying CTEs that the query does not read run after it: the boot rows are locked first.
 */
const PREPARE = `
PREPARE agua_seq_lock(json) AS
INSERT INTO telemetry_seq_boots AS t (device_id, boot, runs, last_received_ms)
SELECT d, b, '{}', 0 FROM json_to_recordset($1) AS u(d text, b text) ORDER BY d, b
ON CONFLICT (device_id, boot) DO UPDATE SET last_received_ms = t.last_received_ms
RETURNING device_id, boot, runs, version;

PREPARE agua_readings_after(json, json, json) AS
WITH runs AS (
  UPDATE telemetry_seq_boots AS t SET runs = u.r, last_received_ms = u.l, version = u.n
  FROM json_to_recordset($1) AS u(d text, b text, r bigint[], l bigint, n bigint)
  WHERE t.device_id = u.d AND t.boot = u.b
),
${READINGS_AND_DEVICES}
${updateCurrentReadings('newest')};

PREPARE agua_readings_known(json, json, json, bigint) AS
WITH runs AS (
  UPDATE telemetry_seq_boots AS t SET runs = u.r, last_received_ms = u.l, version = u.n
  FROM json_to_recordset($1) AS u(d text, b text, r bigint[], l bigint, v bigint, n bigint),
    (SELECT device_id, boot FROM telemetry_seq_boots
     WHERE (device_id, boot) IN (SELECT d, b FROM json_to_recordset($1) AS k(d text, b text))
     ORDER BY device_id, boot FOR UPDATE) AS locked
  WHERE t.device_id = u.d AND t.boot = u.b AND t.version = u.v AND locked.device_id = t.device_id AND locked.boot = t.boot
  RETURNING 1
),
${READINGS_AND_DEVICES},
moved AS (
  ${updateCurrentReadings('newest')}
)
SELECT agua_seq_runs_unchanged((SELECT count(*) FROM runs) = $4);`;

/** Connections on which PREPARE ran, whichever writer ran it (a connection that failed is never reused). */
const prepared = new WeakSet<pg.ClientBase>();

/**
 * From this many new readings a commit sends them by COPY (far less of PostgreSQL's work per row
 * than an INSERT of JSON, but a statement of its own); fewer ride in the last statement's JSON.
 */
export const COPY_FROM_ROWS = 64;

/**
 * The readings' columns, in the order of the COPY rows below. Binary rather than text: neither
 * side turns numbers into digits and back (in one comparison, storage alone, 1,000-row COPYs:
 * PostgreSQL 5.5-6.5 against 7.1-7.4 µs per row), and no character of a value needs escaping.
 */
const COPY_READINGS = 'COPY readings (device_id, ts_ms, value_num, value_text, status, received_ms, raw_num) FROM STDIN (FORMAT binary)';

interface SeqBootRow {
  device_id: string;
  boot: string;
  runs: (string | number)[];
  version: number;
}

/** A (device, boot) row as this instance last committed it: its runs (flat, as stored) and version. */
interface KnownBoot {
  deviceId: string;
  boot: string;
  runs: number[];
  version: number;
}

/** Boot rows remembered per instance (a few hundred bytes each): past this, the least recently used are forgotten. */
const MAX_KNOWN_BOOTS = 20_000;

/**
 * The ingest hot path on PostgreSQL, as one transaction on a client of the pool:
 * 1. BEGIN, and the (device, boot) rows of the batch's seqs locked and read (agua_seq_lock);
 * 2. each seq claimed against those runs in memory, as on SQLite (SeqRuns): new or duplicate;
 * 3. the new readings by one binary `COPY` when there are many (COPY_FROM_ROWS), else as JSON in
 *    step 4's statement;
 * 4. the runs and the devices' current readings (agua_readings_after), then what else must
 *    commit with them (alarm changes), and COMMIT.
 * Steps 3 and 4 travel in one write with their data: two round trips. When the group is small
 * (fewer than COPY_FROM_ROWS readings), this instance wrote all its boot rows last (a device keeps
 * reaching the same instance) and no commit of theirs is under way, step 1 is skipped: the seqs
 * are claimed against the runs it remembers and everything goes in one write, checked against the
 * rows' versions (agua_readings_known): one round trip. Deduplication holds across instances because the truth is the rows, read under
 * their lock or checked by version in the transaction that writes them. On a failure the caller
 * rolls back. Returns, for each reading, whether it was new (false = duplicate).
 */
export class PgReadingsWriter {
  /** Boot rows by key, least recently used first. */
  private readonly known = new Map<string, KnownBoot>();
  /** Keys in commits under way here, and how many: such a row is read under its lock, not remembered. */
  private readonly writing = new Map<string, number>();

  constructor(private readonly windowMs = DUPLICATE_WINDOW_MS) {}

  async write(client: pg.ClientBase, items: ReadingRow[], alsoInTransaction?: (client: pg.ClientBase) => Promise<void>): Promise<boolean[]> {
    if (!prepared.has(client)) {
      await client.query(PREPARE);
      prepared.add(client);
    }
    const boots = storableBoots(items);
    const keys = bootKeys(items, boots);
    // A large group goes by COPY and pays the lock's round trip over its many readings.
    const known = !alsoInTransaction && items.length < COPY_FROM_ROWS ? this.rememberedRows(keys) : null;
    for (const key of keys.keys()) this.writing.set(key, (this.writing.get(key) ?? 0) + 1);
    try {
      return known ? await this.writeKnown(client, items, boots, known) : await this.writeLocked(client, items, boots, keys, alsoInTransaction);
    } catch (err) {
      // What is stored is unknown now: the next write reads these rows again.
      for (const key of keys.keys()) this.known.delete(key);
      throw err;
    } finally {
      for (const key of keys.keys()) {
        const n = this.writing.get(key)! - 1;
        if (n === 0) this.writing.delete(key);
        else this.writing.set(key, n);
      }
    }
  }

  /** Forgets (device, boot) rows whose every run has passed its 24 h window. */
  async pruneExpiredSeqs(pool: pg.Pool, nowMs = Date.now()): Promise<number> {
    const cutoff = nowMs - this.windowMs;
    for (const [key, row] of this.known) if (Math.max(...row.runs.filter((_, k) => k % 4 === 3)) < cutoff) this.known.delete(key);
    let total = 0;
    for (;;) {
      // The outer condition is checked again on a row a writer changed meanwhile (it waited for its lock).
      const res = await pool.query(
        `DELETE FROM telemetry_seq_boots WHERE last_received_ms < $1
           AND ctid = ANY (ARRAY(SELECT ctid FROM telemetry_seq_boots WHERE last_received_ms < $1 LIMIT $2))`,
        [cutoff, PRUNE_CHUNK],
      );
      total += res.rowCount ?? 0;
      if ((res.rowCount ?? 0) < PRUNE_CHUNK) return total;
    }
  }

  /** Forgets a device's seqs (its history was purged). */
  async forgetDevice(pool: pg.Pool, deviceId: string): Promise<void> {
    for (const [key, row] of this.known) if (row.deviceId === deviceId) this.known.delete(key);
    await pool.query('DELETE FROM telemetry_seq_boots WHERE device_id = $1', [deviceId]);
  }

  /**
   * Claims against the remembered runs and commits in one message, if they are still those stored.
   * Only for a small group: its new readings ride in the statement's JSON, never by COPY.
   */
  private async writeKnown(client: pg.ClientBase, items: ReadingRow[], boots: string[], known: KnownBoot[]): Promise<boolean[]> {
    const { runs, fresh, rows } = this.claim(items, boots, known);
    // Every remembered row is written, changed or not: its version is what proves the claims.
    const written = known.map((row) => ({ ...toStore(runs, row.deviceId, row.boot), v: row.version, n: newVersion() }));
    const args = [JSON.stringify(written), readingsJson(rows), newestJson(items, fresh)].map((json) => client.escapeLiteral(json));
    await client.query(`BEGIN; EXECUTE agua_readings_known(${args.join(', ')}, ${written.length}); COMMIT`);
    for (const row of written) this.remember({ deviceId: row.d, boot: row.b, runs: row.r, version: row.n });
    return fresh;
  }

  /** Steps 1 to 4 above, the boot rows read under their lock. */
  private async writeLocked(
    client: pg.ClientBase,
    items: ReadingRow[],
    boots: string[],
    keys: Map<string, { d: string; b: string }>,
    alsoInTransaction?: (client: pg.ClientBase) => Promise<void>,
  ): Promise<boolean[]> {
    const locked = await this.begin(client, keys);
    const { runs, fresh, rows, byCopy } = this.claim(items, boots, locked);
    const changed = changedRows(runs);
    const args = [JSON.stringify(changed), byCopy ? '[]' : readingsJson(rows), newestJson(items, fresh)].map((json) => client.escapeLiteral(json));
    const after = `EXECUTE agua_readings_after(${args.join(', ')})`;
    if (alsoInTransaction) {
      await send(client, byCopy ? rows : null, after);
      await alsoInTransaction(client);
      await client.query('COMMIT');
    } else {
      await send(client, byCopy ? rows : null, `${after}; COMMIT`);
    }
    const newVersions = new Map(changed.map((row) => [bootKey(row.d, row.b), row.n]));
    for (const row of locked) {
      const stored = toStore(runs, row.deviceId, row.boot);
      this.remember({ deviceId: row.deviceId, boot: row.boot, runs: stored.r, version: newVersions.get(bootKey(row.deviceId, row.boot)) ?? row.version });
    }
    return fresh;
  }

  /** Step 2: each seq claimed against the rows' runs; the new readings, and whether they go by COPY. */
  private claim(items: ReadingRow[], boots: string[], rows: KnownBoot[]) {
    const runs = new SeqRuns(this.windowMs);
    runs.load(rows.flatMap(unflatten));
    const fresh = items.map((r, i) => r.seq === null || runs.claim(r.deviceId, boots[i]!, r.seq, r.receivedMs));
    const newRows = items.filter((_, i) => fresh[i]);
    return { runs, fresh, rows: newRows, byCopy: newRows.length >= COPY_FROM_ROWS };
  }

  /** Step 1: BEGIN, and the batch's (device, boot) rows locked and read. */
  private async begin(client: pg.ClientBase, keys: Map<string, { d: string; b: string }>): Promise<KnownBoot[]> {
    if (keys.size === 0) {
      await client.query('BEGIN');
      return [];
    }
    // A message of two statements answers with one result each.
    const results = (await client.query(`BEGIN; EXECUTE agua_seq_lock(${client.escapeLiteral(JSON.stringify([...keys.values()]))})`)) as unknown as pg.QueryResult<SeqBootRow>[];
    return results[1]!.rows.map((row) => ({ deviceId: row.device_id, boot: row.boot, runs: row.runs.map(Number), version: Number(row.version) }));
  }

  /**
   * The remembered rows of all these keys, or null if one is not remembered or is in a commit
   * under way (its remembered version would lose to that commit's: a retry for nothing).
   */
  private rememberedRows(keys: Map<string, { d: string; b: string }>): KnownBoot[] | null {
    const rows: KnownBoot[] = [];
    for (const key of keys.keys()) {
      const row = this.known.get(key);
      if (row === undefined || this.writing.has(key)) return null;
      rows.push(row);
    }
    return rows;
  }

  private remember(row: KnownBoot): void {
    const key = bootKey(row.deviceId, row.boot);
    this.known.delete(key); // re-inserted: most recently used last
    this.known.set(key, row);
    if (this.known.size > MAX_KNOWN_BOOTS) this.known.delete(this.known.keys().next().value!);
  }
}

/** A (device, boot) as one map key (a device id holds no U+0000). */
const bootKey = (deviceId: string, boot: string): string => `${deviceId}\u0000${boot}`;

/** The distinct (device, boot) keys of the readings with a seq. */
function bootKeys(items: ReadingRow[], boots: string[]): Map<string, { d: string; b: string }> {
  const keys = new Map<string, { d: string; b: string }>();
  let last: ReadingRow | null = null;
  items.forEach((r, i) => {
    // Readings come in runs of one device and boot: one key per run, not per reading.
    if (r.seq === null || (last !== null && r.deviceId === last.deviceId && r.boot === last.boot)) return;
    last = r;
    keys.set(bootKey(r.deviceId, boots[i]!), { d: r.deviceId, b: boots[i]! });
  });
  return keys;
}

const readingsJson = (rows: ReadingRow[]): string =>
  JSON.stringify(rows.map((r) => ({ d: r.deviceId, t: r.tsMs, v: r.valueNum, x: r.valueText, s: r.status, r: r.receivedMs, w: r.rawNum })));

const newestJson = (items: ReadingRow[], fresh: boolean[]): string =>
  JSON.stringify(newestPerDevice(items, fresh).map((n) => ({ device_id: n.deviceId, ts_ms: n.tsMs, value_num: n.valueNum, value_text: n.valueText, status: n.status, raw_num: n.rawNum, heard: n.heardMs })));

/** A boot's runs as stored: flat, and the newest reception among them. */
function toStore(runs: SeqRuns, deviceId: string, boot: string): { d: string; b: string; r: number[]; l: number } {
  const list = runs.runsFor(deviceId, boot);
  return { d: deviceId, b: boot, r: list.flatMap((run) => [run.from, run.to, run.firstMs, run.lastMs]), l: list.reduce((max, run) => Math.max(max, run.lastMs), 0) };
}

/**
 * The claimed rows whose runs changed, as agua_readings_after takes them. Runs past their window
 * stay until a new run of the same boot drops them (SeqRuns) or the whole row expires; claims
 * already look past them.
 */
function changedRows(runs: SeqRuns): { d: string; b: string; r: number[]; l: number; n: number }[] {
  const keys = new Map<string, SeqRun>();
  for (const run of runs.takeDirty()) keys.set(bootKey(run.deviceId, run.boot), run);
  return [...keys.values()].map(({ deviceId, boot }) => ({ ...toStore(runs, deviceId, boot), n: newVersion() }));
}

/**
 * A row's version after a write: random rather than counted, so that a row deleted (a purge, the
 * window's end) and made again never comes back with a version a writer still remembers.
 */
const newVersion = (): number => randomInt(2 ** 48 - 1);

/**
 * One message of statements: the new readings by COPY when given (in the batch's order; the rows
 * travel in the same write), then `after`. A failure skips the rest.
 */
function send(client: pg.ClientBase, copyRows: ReadingRow[] | null, after: string): Promise<unknown> {
  return copyRows ? copyIn(client, `${COPY_READINGS}; ${after}`, binaryCopy(copyRows)) : client.query(after);
}

/** PostgreSQL's binary COPY signature, flags and header extension length. */
const COPY_HEADER = Buffer.from('PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0', 'latin1');
/** Per row: the field count, seven field lengths, four 8-byte numbers (the texts' bytes are added to it). */
const FIXED_ROW_BYTES = 2 + 7 * 4 + 4 * 8;

/** Rows in COPY's binary format: each field its length (-1 for NULL) and its bytes, numbers big-endian. */
function binaryCopy(rows: ReadingRow[]): Buffer {
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
  const writeFloat8 = (n: number | null): void => {
    if (n === null) {
      view.setInt32(o, -1);
      o += 4;
    } else {
      view.setInt32(o, 8);
      view.setFloat64(o + 4, n);
      o += 12;
    }
  };
  for (const r of rows) {
    view.setInt16(o, 7);
    o += 2;
    writeBytes(bytesOf(r.deviceId));
    writeInt8(r.tsMs);
    writeFloat8(r.valueNum);
    if (r.valueText === null) {
      view.setInt32(o, -1);
      o += 4;
    } else {
      writeBytes(bytesOf(r.valueText));
    }
    writeBytes(bytesOf(r.status));
    writeInt8(r.receivedMs);
    writeFloat8(r.rawNum);
  }
  view.setInt16(o, -1);
  return buf.subarray(0, o + 2);
}

/** A row's flat runs (four numbers each) as SeqRuns holds them. */
function unflatten(row: KnownBoot): SeqRun[] {
  const out: SeqRun[] = [];
  for (let k = 0; k + 3 < row.runs.length; k += 4) {
    out.push({ id: null, deviceId: row.deviceId, boot: row.boot, from: row.runs[k]!, to: row.runs[k + 1]!, firstMs: row.runs[k + 2]!, lastMs: row.runs[k + 3]! });
  }
  return out;
}
