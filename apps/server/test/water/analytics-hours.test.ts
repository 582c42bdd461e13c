// docs/water.md "Analytics: how they are answered": GET /devices/{id}/analytics answers hours
// and local days from the stored per-hour figures, and the answer is the scan's to the last bit —
// across a 25-hour day, after a late reading into a stored hour, after a geometry change, after a
// restart.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf } from '../helpers/api';
import { LEVEL_1, levelMsg, postTelemetry } from '../helpers/protocol';
import { startServer, tempDataDir, type TestServer } from '../helpers/server';
import { sqlAll, sqlRun, sqlValue } from '../helpers/sql';
import { useTimeZone } from '../helpers/time-zone';

useTimeZone('Europe/Madrid');

interface Series {
  items: Array<{ ts: string; level: number; volumeM3: number | null; netFlowM3h: number | null; inflowM3: number | null; outflowM3: number | null }>;
}

const MIN = 60_000;
const HOUR = 60 * MIN;

/** Local (Europe/Madrid) wall-clock time to epoch ms. */
const local = (date: string, time = '00:00') => new Date(`${date}T${time}:00`).getTime();
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Readings every 2 minutes from 2026-10-23 23:50 to 2026-10-27 06:00 (the clocks go back on the
 * 25th): a tank filling and draining with noise, a fault reading now and then, and two silences
 * longer than the 15 minutes that link a series across an edge.
 */
function readings(): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const from = local('2026-10-23', '23:50');
  const to = local('2026-10-27', '06:00');
  for (let t = from, k = 0; t < to; t += 2 * MIN, k++) {
    if (t >= local('2026-10-24', '10:05') && t < local('2026-10-24', '10:40')) continue;
    if (t >= local('2026-10-25', '23:30') && t < local('2026-10-26', '01:20')) continue;
    const level = k % 97 === 0 ? 55 : 5 + 3 * Math.sin(k / 60) + ((k * 7919) % 17) / 200;
    out.push([t, Math.round(level * 1000) / 1000]);
  }
  return out;
}

describe('analytics from stored hours', () => {
  const dataDir = tempDataDir();
  let s: TestServer;
  let viewer: string;
  let admin: string;
  let seq = 0;
  const ranges = {
    hours: { from: iso(local('2026-10-24', '00:00')), to: iso(local('2026-10-27', '00:00')), step: '1h' },
    // Cut mid-hour at both ends: the first and last buckets are partial and scanned.
    cut: { from: iso(local('2026-10-24', '05:17')), to: iso(local('2026-10-26', '13:41')), step: '1h' },
    days: { from: iso(local('2026-10-23', '00:00')), to: iso(local('2026-10-28', '00:00')), step: '1d' },
    // The last day ends inside the range's end: its stored hours, then the readings to 13:41.
    daysCut: { from: iso(local('2026-10-24', '00:00')), to: iso(local('2026-10-26', '13:41')), step: '1d' },
  };
  type RangeName = keyof typeof ranges;
  const names = Object.keys(ranges) as RangeName[];

  const post = async (points: Array<[number, number]>) => {
    for (let i = 0; i < points.length; i += 500) {
      const body = points.slice(i, i + 500).map(([ts, v]) => levelMsg(LEVEL_1, v, { ts: iso(ts), seq: ++seq, boot: 'hours' }));
      expect((await postTelemetry(s, body)).status).toBe(202);
    }
  };
  const answer = async (name: RangeName) => {
    const res = await s.fetch(`/api/v1/devices/${LEVEL_1}/analytics?${new URLSearchParams(ranges[name])}`, { cookie: viewer });
    const { status, body } = await jsonOf<Series>(res);
    expect(status).toBe(200);
    return body.items;
  };
  const answers = async (): Promise<Record<RangeName, Series['items']>> => {
    const [hours, cut, days, daysCut] = await Promise.all(names.map(answer));
    return { hours: hours!, cut: cut!, days: days!, daysCut: daysCut! };
  };
  /** The scan's answers: with no stored hour, every bucket comes from the readings. */
  const scanned = async () => {
    await sqlRun(s, 'DELETE FROM water_hours');
    return answers();
  };
  const storedHours = async (fromMs: number, toMs: number) =>
    Number(await sqlValue(s, 'SELECT COUNT(*) AS n FROM water_hours WHERE device_id = ? AND hour_ms >= ? AND hour_ms < ?', LEVEL_1, fromMs, toMs));

  beforeAll(async () => {
    s = await startServer({}, { dataDir });
    viewer = await s.login('viewer');
    admin = await s.login('admin');
    await post(readings());
  });
  afterAll(async () => {
    await s?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('hours and local days (one of 25 hours) from stored hours are the scan\'s answer, to the last bit', async () => {
    const scan = await scanned();
    // 73 hours (25 on the 25th); the silence from 23:30 leaves 00:00 of the 26th out.
    expect(scan.hours).toHaveLength(72);
    expect(scan.days.map((d) => d.ts)).toEqual(['2026-10-23', '2026-10-24', '2026-10-25', '2026-10-26', '2026-10-27'].map((d) => iso(local(d))));

    await s.modules.water.hours.recompute();
    // Every complete hour from the first reading's to now is stored, empty ones too.
    const first = Math.floor(local('2026-10-23', '23:50') / HOUR) * HOUR;
    expect(await storedHours(first, Math.floor(Date.now() / HOUR) * HOUR)).toBe((Math.floor(Date.now() / HOUR) * HOUR - first) / HOUR);
    expect(await answers()).toEqual(scan);

    // The stored rows are what answers: one altered hour shows in its bucket and its day.
    const hour = local('2026-10-25', '14:00');
    const [row] = await sqlAll<{ hour_state: string }>(s, 'SELECT hour_state FROM water_hours WHERE device_id = ? AND hour_ms = ?', LEVEL_1, hour);
    const altered = { ...JSON.parse(row!.hour_state), levelSum: 0 };
    await sqlRun(s, 'UPDATE water_hours SET hour_state = ? WHERE device_id = ? AND hour_ms = ?', JSON.stringify(altered), LEVEL_1, hour);
    const hours = await answer('hours');
    expect(hours.find((b) => b.ts === iso(hour))!.level).toBe(0);
    expect(hours.filter((b) => b.ts !== iso(hour))).toEqual(scan.hours.filter((b) => b.ts !== iso(hour)));
    // A day is told by its last hour's running figures.
    const lastOfDay = local('2026-10-26') - HOUR;
    const [end] = await sqlAll<{ day_state: string }>(s, 'SELECT day_state FROM water_hours WHERE device_id = ? AND hour_ms = ?', LEVEL_1, lastOfDay);
    await sqlRun(s, 'UPDATE water_hours SET day_state = ? WHERE device_id = ? AND hour_ms = ?', JSON.stringify({ ...JSON.parse(end!.day_state), levelSum: 0 }), LEVEL_1, lastOfDay);
    const days = await answer('days');
    expect(days.find((d) => d.ts === iso(local('2026-10-25')))!.level).toBe(0);
    expect(days.filter((d) => d.ts !== iso(local('2026-10-25')))).toEqual(scan.days.filter((d) => d.ts !== iso(local('2026-10-25'))));
  });

  it('a late reading into a stored hour: its hour, the next and the rest of its day are dropped, and the answer follows it at once', async () => {
    const before = await scanned();
    await s.modules.water.hours.recompute();
    const dayFrom = local('2026-10-25');
    const dayTo = local('2026-10-26');
    expect(await storedHours(dayFrom, dayTo)).toBe(25);

    await post([[local('2026-10-25', '14:31'), 9.9]]);
    const late = await answers();
    expect(late.hours).not.toEqual(before.hours);
    expect(await storedHours(dayFrom, local('2026-10-25', '14:00'))).toBe(15); // 25-hour day: 00:00–13:00 local is 15 UTC hours
    expect(await storedHours(local('2026-10-25', '14:00'), dayTo)).toBe(0);
    expect(late).toEqual(await scanned());

    await s.modules.water.hours.recompute();
    expect(await storedHours(dayFrom, dayTo)).toBe(25);
    expect(await answers()).toEqual(late);
  });

  it('a geometry change: stored hours of the old version no longer answer; the job stores them again', async () => {
    await s.modules.water.hours.recompute();
    const old = await answers();
    const res = await s.fetch(`/api/v1/devices/${LEVEL_1}/geometry`, { method: 'PUT', cookie: admin, json: { shape: { kind: 'rectangular', areaM2: 2400 }, crestLevelM: 9 } });
    expect(res.status).toBe(200);
    const version = s.modules.water.geometry.version(LEVEL_1);

    // Readings keep the volumes of the version valid at their time; the in/out walk's dead band is
    // the version in force's (0.2 % of 24,000 m³ now): the whole days' in and out change.
    const changed = await answers();
    expect(changed.days.map((d) => d.volumeM3)).toEqual(old.days.map((d) => d.volumeM3));
    for (const i of [1, 2, 3]) expect(changed.days[i]!.inflowM3).not.toBe(old.days[i]!.inflowM3);
    expect(changed).toEqual(await scanned());

    await s.modules.water.hours.recompute();
    const versions = await sqlAll<{ v: number }>(s, 'SELECT DISTINCT geometry_version AS v FROM water_hours WHERE device_id = ?', LEVEL_1);
    expect(versions.map((r) => Number(r.v))).toEqual([version]);
    expect(await answers()).toEqual(changed);
  });

  it('stored hours survive a restart, and the job then leaves those that hold alone', async () => {
    await s.modules.water.hours.recompute();
    const before = await answers();
    const computed = async () => sqlAll(s, 'SELECT hour_ms, computed_at_ms FROM water_hours WHERE device_id = ? AND hour_ms < ? ORDER BY hour_ms', LEVEL_1, local('2026-10-28'));
    const rows = await computed();
    expect(rows.length).toBeGreaterThan(72);

    await s.close();
    s = await startServer({}, { dataDir });
    viewer = await s.login('viewer');
    expect(await computed()).toEqual(rows);
    expect(await answers()).toEqual(before);
    await s.modules.water.hours.recompute();
    expect(await computed()).toEqual(rows);
  });

  it('hours whose readings retention pruned no longer answer, and the job drops them', async () => {
    await s.modules.water.hours.recompute();
    // Retention as if RETENTION_DAYS had passed since the 25th at 12:00 local.
    const cut = local('2026-10-25', '12:00');
    expect(await s.modules.history.retention.runOnce(cut + s.config.retentionDays * 86_400_000)).toBeGreaterThan(0);
    const pruned = await answers();
    expect(pruned.hours[0]!.ts).toBe(iso(cut));
    expect(pruned).toEqual(await scanned());
    await s.modules.water.hours.recompute();
    expect(await storedHours(0, cut)).toBe(0);
    expect(await storedHours(cut, local('2026-10-26'))).toBe(12);
    expect(await answers()).toEqual(pruned);
  });
});
