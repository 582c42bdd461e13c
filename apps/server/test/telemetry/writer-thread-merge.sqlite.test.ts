// The writer thread takes every request waiting for it at once, and writes of readings handed over
// while it commits share its next transaction (ADR 008). Each request must still get its own
// answer, in the order the requests were made; and alarm changes computed on top of an alarm write
// that failed must be refused, never stored on top of a state that is not there.
import fs from 'node:fs';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteIngestStore } from '../../src/storage/ingest/sqlite/sqlite-ingest-store';
import type { ReadingRow as ReadingToStore } from '../../src/storage/ingest/rows';
import { openStorage, type SqliteStorage } from '../../src/storage/database';
import { StorageUnavailableError } from '../../src/storage/storage-health';
import { raisedAlarm } from '../helpers/alarm-changes';
import { tempDataDir } from '../helpers/server';

const NOW = Date.now();
const log = pino({ level: 'silent' });
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function openThread(): Promise<{ storage: SqliteStorage; writer: SqliteIngestStore }> {
  const dir = tempDataDir();
  const storage = await openStorage(dir);
  for (const id of ['d1', 'd2']) {
    storage.sqlite
      .prepare(`INSERT INTO devices (id, name, location, type, config_json, created_at_ms, updated_at_ms) VALUES (?, ?, 'x', 'level_sensor', '{}', 0, 0)`)
      .run(id, id.toUpperCase());
  }
  const writer = new SqliteIngestStore(storage.file, null, log);
  cleanups.push(async () => {
    await writer.close();
    await storage.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { storage, writer };
}

function reading(deviceId: string, seq: number | null, over: Partial<ReadingToStore> = {}): ReadingToStore {
  return { deviceId, tsMs: NOW - 100_000 + (seq ?? 0), valueNum: 1.5, valueText: null, status: 'normal', rawNum: null, seq, boot: 'b', receivedMs: NOW, fromDevice: true, ...over };
}

const storedAlarms = (storage: SqliteStorage) => storage.sqlite.prepare('SELECT id FROM alarms ORDER BY id').pluck().all();

describe('the writer thread merges what waits for it', () => {
  it('answers each of many writes handed over at once with its own results, duplicates judged in the order they were made', async () => {
    const { storage, writer } = await openThread();
    // 40 writes without waiting: the thread finds most of them queued and commits them together.
    // Request k repeats the last seq of request k - 1, so its first reading is a duplicate.
    const writes = Array.from({ length: 40 }, (_, k) => {
      const first = k * 10;
      const items = Array.from({ length: 11 }, (_, i) => reading(k % 2 ? 'd2' : 'd1', first - 1 + i));
      return writer.write(k === 0 ? items.slice(1) : items.map((r, i) => (i === 0 ? { ...r, deviceId: k % 2 ? 'd1' : 'd2' } : r)));
    });
    const results = await Promise.all(writes);
    expect(results[0]).toEqual(Array(10).fill(true));
    for (const fresh of results.slice(1)) expect(fresh).toEqual([false, ...Array(10).fill(true)]);
    expect(storage.sqlite.prepare('SELECT COUNT(*) FROM readings').pluck().get()).toBe(400);
    // Each device's current reading is its newest, whichever request carried it.
    const current = storage.sqlite.prepare("SELECT id, reading_ts_ms FROM devices WHERE id IN ('d1', 'd2') ORDER BY id").all();
    expect(current).toEqual([
      { id: 'd1', reading_ts_ms: NOW - 100_000 + 389 },
      { id: 'd2', reading_ts_ms: NOW - 100_000 + 399 },
    ]);
  });

  it('refuses alarm changes made before a failed alarm write was answered; readings alone still go through, and later changes are stored', async () => {
    const { storage, writer } = await openThread();
    const pages = Number(storage.sqlite.pragma('page_count', { simple: true }));
    await writer.pragma(`max_page_count = ${pages}`);

    // Handed over together, as the engine hands over changes it made one on top of the other:
    // the first needs new pages and fails as a full disk would; the pragma keeps it in a
    // transaction of its own; the second was computed on top of the first.
    const many = Array.from({ length: 2000 }, (_, i) => reading('d1', i));
    const failing = writer.write(many, [raisedAlarm('alm_a', 1000)]);
    const restored = writer.pragma('max_page_count = 1073741823');
    const onTop = writer.write([reading('d1', 5000)], [raisedAlarm('alm_b', 2000)]);
    const readingsOnly = writer.write([reading('d2', 1)]);

    await expect(failing).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    await restored;
    await expect(onTop).rejects.toBeInstanceOf(StorageUnavailableError);
    expect(await readingsOnly).toEqual([true]);
    expect(storedAlarms(storage)).toEqual([]);

    // Made after the failure was known: stored.
    expect(await writer.write([reading('d1', 6000)], [raisedAlarm('alm_c', 3000)])).toEqual([true]);
    await writer.writeAlarms([raisedAlarm('alm_d', 4000)]);
    expect(storedAlarms(storage)).toEqual(['alm_c', 'alm_d']);
  });
});
