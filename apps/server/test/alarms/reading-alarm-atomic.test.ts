// Issue 12: a reading and the alarm it causes are stored in one transaction — both or neither.
// When the 202 arrives the alarm is already stored; when the readings' commit fails (a full
// database), no alarm is stored or shown, and the resent reading raises it once.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alarm } from '@agua/shared';
import { jsonOf } from '../helpers/api';
import { LEVEL_1, LEVEL_2, levelMsg, postTelemetry, waitFor } from '../helpers/protocol';
import { startServer, tempDataDir, type TestServer } from '../helpers/server';

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

  const storedAlarms = (deviceId: string) =>
    s.app.ctx.storage.sqlite.prepare('SELECT kind, state FROM alarms WHERE device_id = ? ORDER BY kind').all(deviceId) as Array<{ kind: string; state: string }>;
  const openOf = async (deviceId: string) =>
    (await jsonOf<{ items: Alarm[] }>(await s.fetch('/api/v1/alarms?state=open', { cookie: viewer }))).body.items.filter((a) => a.deviceId === deviceId);

  it('when the 202 arrives, the alarm the reading raised is already stored', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await postTelemetry(s, levelMsg(LEVEL_1, i % 2 ? 2 : 9.5, { ts: Date.now() + i }));
      expect(res.status).toBe(202);
      // Read at once, on another connection: committed with the reading, not after it.
      // One alarm, not acknowledged, moving with the level: raised, returned, back again.
      const hh = storedAlarms(LEVEL_1).filter((a) => a.kind === 'level_high_high');
      expect(hh).toEqual([{ kind: 'level_high_high', state: i % 2 ? 'rtn_unack' : 'unack' }]);
    }
  });

  it('a readings commit that fails stores no alarm; the resent reading raises it once', async () => {
    const { storage, readingsWriter } = s.app.ctx;
    const pages = Number(storage.sqlite.pragma('page_count', { simple: true }));
    await readingsWriter.pragma(`max_page_count = ${pages}`);
    let refused = 0;
    try {
      // Enough readings to need new pages: the commit fails as a full disk would make it.
      const many = Array.from({ length: 400 }, (_, i) => levelMsg(LEVEL_2, 1 + (i % 10) / 10, { ts: Date.now() - 60_000 + i, seq: i, boot: 'full' }));
      const batch = [...many, levelMsg(LEVEL_2, 4.9, { ts: Date.now(), seq: 400, boot: 'full' })];
      const res = await postTelemetry(s, batch);
      refused = res.status;
    } finally {
      await readingsWriter.pragma('max_page_count = 1073741823');
    }
    expect(refused).toBe(503);
    expect(storedAlarms(LEVEL_2)).toEqual([]);
    expect(await openOf(LEVEL_2)).toEqual([]);

    const again = await postTelemetry(s, levelMsg(LEVEL_2, 4.9, { ts: Date.now(), seq: 400, boot: 'full' }));
    expect(again.status).toBe(202);
    await waitFor(async () => (await openOf(LEVEL_2)).some((a) => a.kind === 'level_high_high'), 5000);
    expect(storedAlarms(LEVEL_2).filter((a) => a.kind === 'level_high_high')).toEqual([{ kind: 'level_high_high', state: 'unack' }]);
  });
});
