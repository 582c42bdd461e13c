// docs/water.md "Analytics: how they are answered": where local midnight falls at :30 of a UTC
// hour (Asia/Kolkata, UTC+5:30) the stored hours still answer step=1h, and step=1d is scanned
// from the readings — the same answer either way.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf } from '../helpers/api';
import { LEVEL_1, levelMsg, postTelemetry } from '../helpers/protocol';
import { startServer, tempDataDir, type TestServer } from '../helpers/server';
import { sqlRun, sqlValue } from '../helpers/sql';
import { useTimeZone } from '../helpers/time-zone';

useTimeZone('Asia/Kolkata');

interface Series {
  items: Array<{ ts: string; level: number; inflowM3: number | null }>;
}

const MIN = 60_000;
const local = (date: string, time = '00:00') => new Date(`${date}T${time}:00`).getTime();
const iso = (ms: number) => new Date(ms).toISOString();

describe('analytics from stored hours in a zone at :30', () => {
  const dataDir = tempDataDir();
  let s: TestServer;
  let viewer: string;
  const ranges = {
    hours: { from: iso(local('2026-10-10')), to: iso(local('2026-10-12')), step: '1h' },
    days: { from: iso(local('2026-10-09')), to: iso(local('2026-10-13')), step: '1d' },
  };
  const answers = async () => {
    const out: Partial<Record<keyof typeof ranges, Series['items']>> = {};
    for (const [name, query] of Object.entries(ranges)) {
      const { status, body } = await jsonOf<Series>(await s.fetch(`/api/v1/devices/${LEVEL_1}/analytics?${new URLSearchParams(query)}`, { cookie: viewer }));
      expect(status).toBe(200);
      out[name as keyof typeof ranges] = body.items;
    }
    return out;
  };

  beforeAll(async () => {
    s = await startServer({}, { dataDir });
    viewer = await s.login('viewer');
    const body = [];
    for (let t = local('2026-10-09', '23:50'), k = 0; t < local('2026-10-12', '02:00'); t += 5 * MIN, k++) {
      body.push(levelMsg(LEVEL_1, Math.round((5 + 3 * Math.sin(k / 25) + (k % 7) / 100) * 1000) / 1000, { ts: iso(t), seq: k + 1, boot: 'kolkata' }));
    }
    for (let i = 0; i < body.length; i += 500) expect((await postTelemetry(s, body.slice(i, i + 500))).status).toBe(202);
  });
  afterAll(async () => {
    await s?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('hours from stored rows, days from the readings: the scan\'s answer', async () => {
    await sqlRun(s, 'DELETE FROM water_hours');
    const scan = await answers();
    expect(scan.days!.map((d) => d.ts)).toEqual(['2026-10-09', '2026-10-10', '2026-10-11', '2026-10-12'].map((d) => iso(local(d))));
    await s.modules.water.hours.recompute();
    // No day here starts on a whole UTC hour: no row carries a day's figures.
    expect(Number(await sqlValue(s, 'SELECT COUNT(*) AS n FROM water_hours WHERE device_id = ?', LEVEL_1))).toBeGreaterThan(48);
    expect(Number(await sqlValue(s, 'SELECT COUNT(*) AS n FROM water_hours WHERE device_id = ? AND day_state IS NOT NULL', LEVEL_1))).toBe(0);
    expect(await answers()).toEqual(scan);
  });
});
