// The PostgreSQL engine's own rules, on a database of the test's own on this machine's PostgreSQL:
// readings partitioned by day (a day's partition made on demand takes its rows out of the default
// partition; retention drops whole days) and deduplication that holds between two instances
// writing the same seqs at the same moment.
import fs from 'node:fs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toAlarmChangeRow } from '../../src/features/alarms/alarm-change-rows';
import type { AlarmChange } from '../../src/features/alarms/alarms.repository';
import { PostgresIngestStore } from '../../src/storage/ingest/postgres/postgres-ingest-store';
import { COPY_FROM_ROWS } from '../../src/storage/ingest/postgres/readings.pg';
import type { ReadingRow as ReadingToStore } from '../../src/storage/ingest/rows';
import { dayOf } from '../../src/storage/postgres/reading-partitions';
import { openPostgresStorage, type PostgresStorage } from '../../src/storage/postgres/postgres-storage';
import { raisedAlarmChange } from '../helpers/alarm-changes';
import { createTestDatabase, dropTestDatabase } from '../helpers/postgres';
import { tempDataDir } from '../helpers/server';

const DAY_MS = 24 * 3600 * 1000;
const log = pino({ level: 'silent' });

function reading(deviceId: string, tsMs: number, seq: number | null, boot = 'b1'): ReadingToStore {
  return { deviceId, tsMs, valueNum: 1, valueText: null, status: 'normal', rawNum: null, seq, boot, receivedMs: Date.now(), fromDevice: true };
}

describe('PostgreSQL: partitions and deduplication', () => {
  const dataDir = tempDataDir();
  let storage: PostgresStorage;
  let other: PostgresStorage;
  beforeAll(async () => {
    const url = await createTestDatabase(dataDir);
    storage = await openPostgresStorage(url, { log, hold: 'shared' });
    // A second instance: its own pool, partitions and writer on the same database (as instances
    // sharing one through Redis are: both hold the database shared).
    other = await openPostgresStorage(url, { log, hold: 'shared' });
    await storage.pool.query(
      "INSERT INTO devices (id, name, location, type, config_json, created_at_ms, updated_at_ms) VALUES ('d1', 'D1', 'L', 'level_sensor', '{}', 0, 0)",
    );
  });
  afterAll(async () => {
    await storage?.close();
    await other?.close();
    await dropTestDatabase(dataDir);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const countWhere = async (where: string, ...params: unknown[]) =>
    Number((await storage.pool.query<{ n: number }>(`SELECT count(*) AS n FROM ${where}`, params)).rows[0]!.n);
  const partitionOf = async (tsMs: number) =>
    (await storage.pool.query<{ p: string }>('SELECT tableoid::regclass::text AS p FROM readings WHERE ts_ms = $1', [tsMs])).rows.map((r) => r.p);

  it('the days ahead have partitions from the start; a past day gets its own when a reading of it arrives', async () => {
    const store = new PostgresIngestStore(storage.pool, storage.partitions, null, log, 365);
    const today = dayOf(Date.now());
    expect(storage.partitions.covers(today)).toBe(true);
    expect(storage.partitions.covers(today + 7)).toBe(true);
    const tenDaysAgo = (today - 10) * DAY_MS + 3_600_000;
    await store.write([reading('d1', tenDaysAgo, null)]);
    expect(await partitionOf(tenDaysAgo)).toEqual([`readings_d${new Date(tenDaysAgo).toISOString().slice(0, 10).replace(/-/g, '')}`]);
    // Beyond retention: no partition of its own, but stored all the same.
    const longAgo = Date.now() - 400 * DAY_MS;
    await store.write([reading('d1', longAgo, null)]);
    expect(await partitionOf(longAgo)).toEqual(['readings_default']);
  });

  it("making a day's partition moves that day's readings out of the default partition, losing none", async () => {
    const store = new PostgresIngestStore(storage.pool, storage.partitions, null, log, 10);
    const day = dayOf(Date.now()) - 30; // older than this store's retention: lands in the default partition
    const times = [1, 2, 3].map((h) => day * DAY_MS + h * 3_600_000);
    await store.write(times.map((t) => reading('d1', t, null)));
    expect(await countWhere('readings_default WHERE ts_ms = ANY($1)', times)).toBe(3);
    await storage.partitions.ensure(day);
    expect(await countWhere('readings_default WHERE ts_ms = ANY($1)', times)).toBe(0);
    expect(await countWhere('readings WHERE ts_ms = ANY($1)', times)).toBe(3);
    expect(new Set((await Promise.all(times.map(partitionOf))).flat()).size).toBe(1);
  });

  it('retention drops whole days and deletes only what is older than the cutoff in the rest', async () => {
    const store = new PostgresIngestStore(storage.pool, storage.partitions, null, log, 365);
    const today = dayOf(Date.now());
    const old = (today - 5) * DAY_MS + 1000;
    const cutoffDay = today - 3;
    const beforeCut = cutoffDay * DAY_MS + 1000;
    const afterCut = cutoffDay * DAY_MS + 10 * 3_600_000;
    await store.write([reading('d1', old, null), reading('d1', beforeCut, null), reading('d1', afterCut, null)]);
    const cutoff = cutoffDay * DAY_MS + 5 * 3_600_000;
    const deleted = await storage.partitions.pruneBefore(cutoff);
    expect(deleted).toBeGreaterThanOrEqual(2);
    expect(storage.partitions.covers(today - 5)).toBe(false);
    expect(storage.partitions.covers(cutoffDay)).toBe(true);
    expect(await countWhere('readings WHERE ts_ms < $1', cutoff)).toBe(0);
    expect(await countWhere('readings WHERE ts_ms = $1', afterCut)).toBe(1);
    expect(await countWhere("pg_class WHERE relname = $1", `readings_d${new Date(old).toISOString().slice(0, 10).replace(/-/g, '')}`)).toBe(0);
  });

  it('two instances writing the same seqs at once store each reading once, and each seq is new to exactly one', async () => {
    const a = new PostgresIngestStore(storage.pool, storage.partitions, null, log, 365);
    const b = new PostgresIngestStore(other.pool, other.partitions, null, log, 365);
    const now = Date.now();
    const batch = Array.from({ length: 200 }, (_, i) => reading('d1', now + i, i, 'race'));
    // Each instance gets the same readings in its own order, in several concurrent batches.
    const shuffled = [...batch].reverse();
    const results = await Promise.all([
      ...[0, 1, 2, 3].map((k) => a.write(batch.slice(k * 50, k * 50 + 50))),
      ...[0, 1, 2, 3].map((k) => b.write(shuffled.slice(k * 50, k * 50 + 50))),
    ]);
    const freshCount = results.flat().filter(Boolean).length;
    expect(freshCount).toBe(200);
    expect(await countWhere("readings WHERE device_id = 'd1' AND ts_ms >= $1", now)).toBe(200);
    // A resend through either instance is a duplicate; within one batch, the second copy too.
    expect(await b.write([reading('d1', now, 0, 'race'), reading('d1', now + 500, 500, 'race'), reading('d1', now + 500, 500, 'race')])).toEqual([false, true, false]);
  });

  it('an instance that remembers a boot\'s runs still sees seqs another instance stored since (its write is checked and made again)', async () => {
    const a = new PostgresIngestStore(storage.pool, storage.partitions, null, log, 365);
    const b = new PostgresIngestStore(other.pool, other.partitions, null, log, 365);
    const now = Date.now();
    const at = (seq: number) => reading('d1', now - 5 * 3_600_000 + seq, seq, 'shared');
    expect(await a.write([at(1), at(2)])).toEqual([true, true]); // a reads the row under its lock and remembers it
    expect(await a.write([at(2), at(3)])).toEqual([false, true]); // a claims against what it remembers
    expect(await b.write([at(4), at(5)])).toEqual([true, true]); // b, meanwhile, stores 4 and 5
    // a's memory says 4 is new; the row's version says otherwise, and a reads it again.
    expect(await a.write([at(4), at(6)])).toEqual([false, true]);
    expect(await b.write([at(6), at(7)])).toEqual([false, true]);
    expect(await countWhere("readings WHERE device_id = 'd1' AND ts_ms BETWEEN $1 AND $2", now - 5 * 3_600_000 + 1, now - 5 * 3_600_000 + 7)).toBe(7);

    // The same with groups large enough to go by COPY (each reads its boot's row under the lock).
    const big = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => reading('d1', now - 6 * 3_600_000 + from + k, from + k, 'big'));
    expect((await a.write(big(1, 100))).filter(Boolean)).toHaveLength(100);
    expect((await a.write(big(51, 150))).filter(Boolean)).toHaveLength(50);
    expect((await b.write(big(101, 200))).filter(Boolean)).toHaveLength(50);
    expect((await a.write(big(151, 250))).filter(Boolean)).toHaveLength(50);
    expect(await countWhere("readings WHERE device_id = 'd1' AND ts_ms BETWEEN $1 AND $2", now - 6 * 3_600_000 + 1, now - 6 * 3_600_000 + 250)).toBe(250);
  });

  it('seqs are remembered as runs per (device, boot): gaps, resends, expiry and a purged device', async () => {
    const store = new PostgresIngestStore(storage.pool, storage.partitions, null, log, 365);
    const now = Date.now();
    const base = now - 2 * 3_600_000; // readings' times of their own in this file
    const at = (seq: number, boot = 'runs', receivedMs = now) => ({ ...reading('d1', base + seq, seq, boot), receivedMs });
    expect(await store.write([1, 2, 3, 7, 8].map((q) => at(q)))).toEqual([true, true, true, true, true]);
    // The gap 4-6 is new, 1-3 and 7-8 are duplicates, whatever the order; another boot is its own.
    expect(await store.write([5, 2, 4, 8, 6, 9].map((q) => at(q)))).toEqual([true, false, true, false, true, true]);
    expect(await store.write([{ ...at(1, 'other'), tsMs: base }])).toEqual([true]);
    const row = await storage.pool.query<{ runs: string[] }>("SELECT runs FROM telemetry_seq_boots WHERE device_id = 'd1' AND boot = 'runs'");
    const bounds = row.rows[0]!.runs.map(Number).filter((_, k) => k % 4 < 2);
    expect(bounds).toEqual([1, 4, 5, 6, 7, 9]); // 4 grew the first run, 5 began one, 6 grew it, 9 grew the last
    expect(await countWhere("readings WHERE device_id = 'd1' AND ts_ms BETWEEN $1 AND $2", base + 1, base + 9)).toBe(9);

    // Boots travel inside SQL literals: quotes and backslashes are data, and still dedupe.
    const hostile = `x'); DROP TABLE readings; --\\'"\\\\`;
    expect(await store.write([at(1, hostile), at(2, hostile)])).toEqual([true, true]);
    expect(await store.write([at(2, hostile), at(3, hostile)])).toEqual([false, true]);
    // One row (its backslashes stored escaped, as every boot's), and the readings table still there.
    expect(await countWhere('telemetry_seq_boots WHERE starts_with(boot, $1)', "x'); DROP TABLE readings; --")).toBe(1);

    // A boot last heard more than 24 h ago is forgotten by the prune: its seqs are new again.
    const dayAgo = now - DAY_MS - 60_000;
    expect(await store.write([at(1, 'stale', dayAgo)])).toEqual([true]);
    await store.pruneExpiredSeqs();
    expect(await countWhere("telemetry_seq_boots WHERE boot = 'stale'")).toBe(0);
    expect(await countWhere("telemetry_seq_boots WHERE boot = 'runs'")).toBe(1);
    expect(await store.write([at(1, 'stale')])).toEqual([true]);

    await store.forgetDevice('d1');
    expect(await countWhere("telemetry_seq_boots WHERE device_id = 'd1'")).toBe(0);
    expect(await store.write([at(1)])).toEqual([true]);
  });

  it.each([
    ['a small group, in the JSON of its last statement', 1, -5_000_000],
    ['a large group, by binary COPY', COPY_FROM_ROWS, 2 ** 52 - 1_000],
  ])('values are stored as they were sent by %s: texts of any characters, numbers of any sign and size', async (_, copies, numbersFromTs) => {
    const store = new PostgresIngestStore(storage.pool, storage.partitions, null, log, 365);
    const texts = ["tab\there", 'line\nbreak', "back\\slash \\N 'quoted'", 'cr\rlf', '\\N', 'ñandú ✓ 𝄞'];
    // [value, receivedMs]: every bigint and float8 shape the writer must carry.
    const numbers: [number, number][] = [[-0.5, -86_400_001], [1e300, -1], [5e-324, 0], [-Number.MAX_VALUE, 2 ** 52 + 1]];
    const textsFromTs = Date.now() - (2 + copies) * 3_600_000; // apart from the other case's
    const sent: ReadingToStore[] = [];
    for (let copy = 0; copy < copies; copy++) {
      texts.forEach((valueText, i) => sent.push({ ...reading('d1', textsFromTs + copy * 10 + i, null), valueNum: null, valueText }));
      numbers.forEach(([value, receivedMs], i) => sent.push({ ...reading('d1', numbersFromTs + copy * 10 + i, null), valueNum: value, receivedMs }));
    }
    await store.write(sent);
    const back = await storage.pool.query<{ ts_ms: number; value_num: number | null; value_text: string | null; received_ms: number }>(
      'SELECT ts_ms, value_num, value_text, received_ms FROM readings WHERE ts_ms = ANY($1)', [sent.map((r) => r.tsMs)]);
    const key = (r: { tsMs: number; valueNum: number | null; valueText: string | null; receivedMs: number }) => JSON.stringify([r.tsMs, r.valueNum, r.valueText, r.receivedMs]);
    expect(back.rows.map((r) => key({ tsMs: r.ts_ms, valueNum: r.value_num, valueText: r.value_text, receivedMs: r.received_ms })).sort()).toEqual(sent.map(key).sort());
  });

  it('alarm changes handed over one after another are stored in that order, even while readings commit beside them', async () => {
    const store = new PostgresIngestStore(storage.pool, storage.partitions, null, log, 365);
    const raised = raisedAlarmChange('alm_order', 1000);
    const { alarm } = raised;
    const acked: AlarmChange = {
      alarm: { ...alarm, state: 'ack', ackedAtMs: 2000, ackComment: 'visto' },
      transition: { atMs: 2000, from: 'unack', to: 'ack', by: null, comment: 'visto' },
      isNew: false,
    };
    const returned: AlarmChange = {
      alarm: { ...alarm, state: 'cleared', ackedAtMs: 2000, ackComment: 'visto', clearedAtMs: 3000, endedAtMs: 3000 },
      transition: { atMs: 3000, from: 'ack', to: 'cleared', by: null, comment: null },
      isNew: false,
    };
    // Handed over without waiting, as the engine does: the insert, then two updates of the same row,
    // one of them with readings.
    await Promise.all([
      store.writeAlarms([toAlarmChangeRow(raised)]),
      store.write([reading('d1', Date.now(), null)]),
      store.writeAlarms([toAlarmChangeRow(acked)]),
      store.write([reading('d1', Date.now(), null)], [toAlarmChangeRow(returned)]),
    ]);
    const row = (await storage.pool.query<{ state: string }>("SELECT state FROM alarms WHERE id = 'alm_order'")).rows[0];
    expect(row?.state).toBe('cleared');
    const steps = (await storage.pool.query<{ to_state: string }>("SELECT to_state FROM alarm_transitions WHERE alarm_id = 'alm_order' ORDER BY id")).rows;
    expect(steps.map((t) => t.to_state)).toEqual(['unack', 'ack', 'cleared']);
  });
});
