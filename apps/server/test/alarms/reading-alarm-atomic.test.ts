// Issue 12: a reading and the alarm it causes are stored in one transaction — both or neither.
// When the 202 arrives the alarm is already stored; when the readings' commit fails (a full
// database), no alarm is stored or shown, and the resent reading raises it once.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alarm } from '@agua/shared';
import { SqliteIngestStore } from '../../src/storage/ingest/sqlite/sqlite-ingest-store';
import { jsonOf } from '../helpers/api';
import { LEVEL_1, LEVEL_2, levelMsg, postTelemetry, waitFor } from '../helpers/protocol';
import { startServer, tempDataDir, type TestServer } from '../helpers/server';
import { sqlAll, sqlRun, sqlValue } from '../helpers/sql';

describe('a reading and its alarm: one transaction', () => {
  const dataDir = tempDataDir();
  let s: TestServer;
  let viewer: string;
  beforeAll(async () => {
    s = await startServer({ DEVICE_RATE_LIMIT: '0' }, { dataDir });
    viewer = await s.login('viewer');
  });
  afterAll(async () => {
    await s?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const storedAlarms = (deviceId: string) => sqlAll<{ kind: string; state: string }>(s, 'SELECT kind, state FROM alarms WHERE device_id = ? ORDER BY raised_at_ms, id', deviceId);
  const openOf = async (deviceId: string) =>
    (await jsonOf<{ items: Alarm[] }>(await s.fetch('/api/v1/alarms?state=open', { cookie: viewer }))).body.items.filter((a) => a.deviceId === deviceId);

  it('when the 202 arrives, the alarm the reading raised is already stored', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await postTelemetry(s, levelMsg(LEVEL_1, i % 2 ? 2 : 9.5, { ts: Date.now() + i }));
      expect(res.status).toBe(202);
      // Read at once, on another connection: committed with the reading, not after it.
      // One alarm, not acknowledged, moving with the level: raised, returned, back again.
      const hh = (await storedAlarms(LEVEL_1)).filter((a) => a.kind === 'level_high_high');
      expect(hh).toEqual([{ kind: 'level_high_high', state: i % 2 ? 'rtn_unack' : 'unack' }]);
    }
  });

  /**
   * Makes the readings' commits fail as a full disk would, until the returned function is called:
   * a page limit on the SQLite writer thread's connection, or on PostgreSQL a trigger that fails
   * with disk_full (53100).
   */
  async function failCommits(): Promise<() => Promise<void>> {
    const { writer: readingsWriter } = s.modules;
    if (readingsWriter instanceof SqliteIngestStore) {
      await readingsWriter.pragma(`max_page_count = ${Number(await sqlValue(s, 'PRAGMA page_count'))}`);
      return async () => void (await readingsWriter.pragma('max_page_count = 1073741823'));
    }
    await sqlRun(s, "CREATE FUNCTION test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full (test)' USING ERRCODE = '53100'; END $$");
    await sqlRun(s, 'CREATE TRIGGER test_disk_full BEFORE INSERT ON readings FOR EACH STATEMENT EXECUTE FUNCTION test_disk_full()');
    return async () => {
      await sqlRun(s, 'DROP TRIGGER test_disk_full ON readings');
      await sqlRun(s, 'DROP FUNCTION test_disk_full()');
    };
  }

  it('a readings commit that fails stores no alarm; the resent reading raises it once', async () => {
    const restore = await failCommits();
    let refused = 0;
    try {
      // Enough readings to need new pages: the commit fails as a full disk would make it.
      const many = Array.from({ length: 400 }, (_, i) => levelMsg(LEVEL_2, 1 + (i % 10) / 10, { ts: Date.now() - 60_000 + i, seq: i, boot: 'full' }));
      const batch = [...many, levelMsg(LEVEL_2, 4.9, { ts: Date.now(), seq: 400, boot: 'full' })];
      const res = await postTelemetry(s, batch);
      refused = res.status;
    } finally {
      await restore();
    }
    expect(refused).toBe(503);
    expect(await storedAlarms(LEVEL_2)).toEqual([]);
    expect(await openOf(LEVEL_2)).toEqual([]);

    const again = await postTelemetry(s, levelMsg(LEVEL_2, 4.9, { ts: Date.now(), seq: 400, boot: 'full' }));
    expect(again.status).toBe(202);
    await waitFor(async () => (await openOf(LEVEL_2)).some((a) => a.kind === 'level_high_high'), 5000);
    expect((await storedAlarms(LEVEL_2)).filter((a) => a.kind === 'level_high_high')).toEqual([{ kind: 'level_high_high', state: 'unack' }]);
  });
});
