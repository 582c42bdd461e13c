// docs/water.md "Daily totals": GET /devices/{id}/daily — one item per local day (TZ, 23- and
// 25-hour days), from the readings where they exist and from the stored totals once retention
// has pruned them; a level sensor's config.readingIntervalS sets the completeness' slots.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevice, expectApiError, jsonOf } from '../helpers/api';
import { GATE_1, LEVEL_1, LEVEL_2, levelMsg, postTelemetry } from '../helpers/protocol';
import { startServer, tempDataDir, type TestServer } from '../helpers/server';
import { sqlAll, sqlValue } from '../helpers/sql';
import { useTimeZone } from '../helpers/time-zone';
import type { DailyTotals } from '@agua/shared';

useTimeZone('Europe/Madrid');

type Day = DailyTotals;
interface Daily {
  from: string;
  to: string;
  items: Day[];
}

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const FIELDS = ['date', 'minLevelM', 'maxLevelM', 'meanLevelM', 'volumeStartM3', 'volumeEndM3', 'inflowM3', 'outflowM3', 'secondsAboveCrest', 'overflowEvents', 'completenessPct'];

/** Local (Europe/Madrid) wall-clock time to epoch ms. */
const local = (date: string, time = '00:00') => new Date(`${date}T${time}:00`).getTime();

describe('daily totals per local day', () => {
  const dataDir = tempDataDir();
  let s: TestServer;
  let viewer: string;
  let admin: string;
  let seq = 0;
  const daily = (deviceId: string, query: Record<string, string>, cookie = viewer) => s.fetch(`/api/v1/devices/${deviceId}/daily?${new URLSearchParams(query)}`, { cookie });
  const dailyOk = async (deviceId: string, from: string, to: string): Promise<Day[]> => {
    const { status, body } = await jsonOf<Daily>(await daily(deviceId, { from, to }));
    expect(status).toBe(200);
    expect(body.from).toBe(from);
    expect(body.to).toBe(to);
    return body.items;
  };
  /** Posts level readings [tsMs, value] in batches the protocol accepts. */
  const post = async (deviceId: string, readings: Array<[number, number]>, key?: string) => {
    for (let i = 0; i < readings.length; i += 500) {
      const body = readings.slice(i, i + 500).map(([ts, v]) => levelMsg(deviceId, v, { ts: new Date(ts).toISOString(), seq: ++seq, boot: 'daily' }));
      expect((await postTelemetry(s, body, key ? { key } : {})).status).toBe(202);
    }
  };

  beforeAll(async () => {
    s = await startServer({}, { dataDir });
    viewer = await s.login('viewer');
    admin = await s.login('admin');
  });
  afterAll(async () => {
    await s?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  // The demo wet well esp32_nivel_01: 24 m², crest 9 m, maxLevel 10 m (V = 240 m³, dead band 0.48 m³).
  it('totals of a day from readings posted at known times; a day without readings has null figures', async () => {
    await post(LEVEL_1, [
      [local('2026-11-09', '23:50'), 2], // the day before, 10 min before midnight: opens the series
      [local('2026-11-10', '00:00'), 3],
      [local('2026-11-10', '06:00'), 5],
      [local('2026-11-10', '12:00'), 9.5],
      [local('2026-11-10', '12:10'), 9.2],
      [local('2026-11-10', '12:20'), 8],
      [local('2026-11-10', '15:00'), 55], // fault (above 1.2 × maxLevel): in no figure
      [local('2026-11-10', '18:00'), 4],
    ]);
    const items = await dailyOk(LEVEL_1, '2026-11-10', '2026-11-12');
    expect(items.map((d) => d.date)).toEqual(['2026-11-10', '2026-11-11']);
    for (const d of items) expect(Object.keys(d).sort()).toEqual([...FIELDS].sort());
    const [day, empty] = items as [Day, Day];
    // 9.5 and 9.2 m span 10 min at or above the crest: one overflow event, started that day.
    expect(day).toMatchObject({ minLevelM: 3, maxLevelM: 9.5, volumeStartM3: 48, volumeEndM3: 96, secondsAboveCrest: 1200, overflowEvents: 1 });
    expect(day.meanLevelM).toBeCloseTo((3 + 5 + 9.5 + 9.2 + 8 + 4) / 6, 9);
    // The walk: 48 → 72 → 120 → 228 in (180), then → 220.8 → 192 → 96 out (132).
    expect(day.inflowM3).toBeCloseTo(180, 9);
    expect(day.outflowM3).toBeCloseTo(132, 9);
    expect(day.inflowM3! - day.outflowM3!).toBeCloseTo(day.volumeEndM3! - day.volumeStartM3!, 9);
    // readingIntervalS 3 by default: one-minute slots, 1,440 in the day, 6 of them with a usable reading.
    expect(day.completenessPct).toBeCloseTo((100 * 6) / 1440, 9);
    expect(empty).toEqual({
      date: '2026-11-11',
      minLevelM: null,
      maxLevelM: null,
      meanLevelM: null,
      volumeStartM3: null,
      volumeEndM3: null,
      inflowM3: null,
      outflowM3: null,
      secondsAboveCrest: null,
      overflowEvents: 0,
      completenessPct: 0,
    });
  });

  it('config.readingIntervalS: 3 by default, 1–86,400, sets the slots (max(60 s, it))', async () => {
    const device = await jsonOf<{ config: Record<string, unknown> }>(await s.fetch(`/api/v1/devices/${LEVEL_1}`, { cookie: viewer }));
    expect(device.body.config.readingIntervalS).toBe(3);
    const patch = (deviceId: string, readingIntervalS: unknown) => s.fetch(`/api/v1/devices/${deviceId}`, { method: 'PATCH', cookie: admin, json: { config: { readingIntervalS } } });
    await expectApiError(await patch(LEVEL_1, 0), 400, 'VALIDATION_FAILED');
    await expectApiError(await patch(LEVEL_1, 86_401), 400, 'VALIDATION_FAILED');
    await expectApiError(await patch(LEVEL_1, 2.5), 400, 'VALIDATION_FAILED');
    const gate = await jsonOf<{ config: Record<string, unknown> }>(await patch(GATE_1, 300));
    expect(gate.status).toBe(200);
    expect(gate.body.config).not.toHaveProperty('readingIntervalS');
    const changed = await jsonOf<{ config: Record<string, unknown> }>(await patch(LEVEL_1, 600));
    expect(changed.body.config.readingIntervalS).toBe(600);
    const [day] = await dailyOk(LEVEL_1, '2026-11-10', '2026-11-11');
    // 10-minute slots: 144 in the day; 00:00, 06:00, 12:00, 12:10, 12:20 and 18:00 each fill one.
    expect(day!.completenessPct).toBeCloseTo((100 * 6) / 144, 9);
    expect((await patch(LEVEL_1, 3)).status).toBe(200);
  });

  // The demo tank esp32_nivel_02: a vertical cylinder Ø 16 m, no crest, maxLevel 5 m; one reading every 5 minutes.
  it.each([
    ['2026-03-29', 23],
    ['2026-10-25', 25],
  ])('%s lasts %i hours: as many 5-minute slots, and in − out = end − start', async (date, hours) => {
    const patched = await s.fetch(`/api/v1/devices/${LEVEL_2}`, { method: 'PATCH', cookie: admin, json: { config: { readingIntervalS: 300 } } });
    expect(patched.status).toBe(200);
    const start = local(date);
    const next = new Date(`${date}T00:00:00`);
    next.setDate(next.getDate() + 1);
    expect(next.getTime() - start).toBe(hours * HOUR);
    const slots = (hours * 60) / 5;
    // Every slot but the first, the level swinging through a pump cycle each 2 hours.
    const readings = Array.from({ length: slots - 1 }, (_, i): [number, number] => [start + (i + 1) * 5 * MIN + 7_000, 2 + Math.sin(((i + 1) * Math.PI) / 12)]);
    await post(LEVEL_2, readings);
    const prev = new Date(start - HOUR);
    const dateOf = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    const items = await dailyOk(LEVEL_2, dateOf(prev), dateOf(new Date(next.getTime() + 25 * HOUR)));
    expect(items.map((d) => d.date)).toEqual([dateOf(prev), date, dateOf(next)]);
    const day = items[1]!;
    expect(day.completenessPct).toBeCloseTo((100 * (slots - 1)) / slots, 9);
    expect(day.secondsAboveCrest).toBeNull(); // no crest
    const area = Math.PI * 8 ** 2;
    expect(day.volumeStartM3).toBeCloseTo(area * readings[0]![1], 6);
    expect(day.volumeEndM3).toBeCloseTo(area * readings.at(-1)![1], 6);
    expect(day.inflowM3).toBeGreaterThan(0);
    expect(day.outflowM3).toBeGreaterThan(0);
    expect(day.inflowM3! - day.outflowM3!).toBeCloseTo(day.volumeEndM3! - day.volumeStartM3!, 6);
    expect(items[0]!.completenessPct).toBe(0);
    expect(items[2]!.completenessPct).toBe(0);
  });

  it('at most 366 days; dates on the calendar, from before to; gates and unknown devices 404; sign-in needed', async () => {
    expect((await dailyOk(LEVEL_1, '2026-01-01', '2027-01-02')).length).toBe(366);
    const tooMany = await expectApiError(await daily(LEVEL_1, { from: '2026-01-01', to: '2027-01-03' }), 400, 'TOO_MANY_DAYS');
    expect(tooMany.details).toEqual({ max: 366 });
    await expectApiError(await daily(LEVEL_1, { from: '2026-02-30', to: '2026-03-02' }), 400, 'VALIDATION_FAILED');
    await expectApiError(await daily(LEVEL_1, { from: '2026-1-5', to: '2026-03-02' }), 400, 'VALIDATION_FAILED');
    await expectApiError(await daily(LEVEL_1, { from: '2026-03-01T00:00:00Z', to: '2026-03-02' }), 400, 'VALIDATION_FAILED');
    await expectApiError(await daily(LEVEL_1, { from: '2026-03-02' }), 400, 'VALIDATION_FAILED');
    await expectApiError(await daily(LEVEL_1, { from: '2026-03-02', to: '2026-03-02' }), 400, 'RANGE_INVALID');
    await expectApiError(await daily(LEVEL_1, { from: '2026-03-03', to: '2026-03-02' }), 400, 'RANGE_INVALID');
    await expectApiError(await daily(GATE_1, { from: '2026-03-01', to: '2026-03-02' }), 404, 'DEVICE_NOT_FOUND');
    await expectApiError(await daily('esp32_no_existe', { from: '2026-03-01', to: '2026-03-02' }), 404, 'DEVICE_NOT_FOUND');
    await expectApiError(await s.fetch(`/api/v1/devices/${LEVEL_1}/daily?from=2026-03-01&to=2026-03-02`), 401);
  });

  it('stored totals (by the job and on demand) survive the pruning of raw readings', async () => {
    // A sensor that read yesterday: the job stores yesterday and today.
    const { apiKey } = await createDevice(s, admin, { id: 'esp32_diario_01', name: 'Diario', location: 'Prueba', type: 'level_sensor', config: { maxLevel: 5 } });
    const today = new Date();
    today.setHours(0, 0, 0, 0);
    const yesterday = new Date(today);
    yesterday.setDate(yesterday.getDate() - 1);
    const dateOf = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    await post('esp32_diario_01', [[yesterday.getTime() + 8 * HOUR, 1], [yesterday.getTime() + 9 * HOUR, 2], [yesterday.getTime() + 10 * HOUR, 4]], apiKey);
    await s.modules.water.daily.recomputeRecent();
    const stored = await sqlAll<{ date: string; points: number }>(s, 'SELECT date, points FROM daily_totals WHERE device_id = ? ORDER BY date', 'esp32_diario_01');
    expect(stored.map((r) => [r.date, Number(r.points)])).toEqual([[dateOf(yesterday), 3]]);

    const before = {
      level1: await dailyOk(LEVEL_1, '2026-11-09', '2026-11-12'),
      level2: await dailyOk(LEVEL_2, '2026-10-24', '2026-10-27'),
      diario: await dailyOk('esp32_diario_01', dateOf(yesterday), dateOf(today)),
    };
    expect(before.level1[1]!.maxLevelM).toBe(9.5);
    expect(before.diario[0]).toMatchObject({ minLevelM: 1, maxLevelM: 4 });
    expect(before.diario[0]!.meanLevelM).toBeCloseTo(7 / 3, 9);
    // Asked for, past days were stored on demand.
    expect(Number(await sqlValue(s, 'SELECT COUNT(*) AS n FROM daily_totals WHERE device_id = ? AND date IN (?, ?)', LEVEL_1, '2026-11-09', '2026-11-10'))).toBe(2);

    // Retention as if a year had passed: every reading before today goes, the stored totals stay.
    const pruned = await s.modules.history.retention.runOnce(today.getTime() + s.config.retentionDays * DAY);
    expect(pruned).toBeGreaterThan(0);
    expect(Number(await sqlValue(s, 'SELECT COUNT(*) AS n FROM readings WHERE ts_ms < ?', today.getTime()))).toBe(0);

    expect(await dailyOk(LEVEL_1, '2026-11-09', '2026-11-12')).toEqual(before.level1);
    expect(await dailyOk(LEVEL_2, '2026-10-24', '2026-10-27')).toEqual(before.level2);
    expect(await dailyOk('esp32_diario_01', dateOf(yesterday), dateOf(today))).toEqual(before.diario);
    // The 23-hour day, stored when it was asked for above, still has its 276 slots.
    expect((await dailyOk(LEVEL_2, '2026-03-29', '2026-03-30'))[0]!.completenessPct).toBeCloseTo((100 * 275) / 276, 9);

    // Purging a device deletes its stored days with it.
    expect((await s.fetch('/api/v1/devices/esp32_diario_01?purge=true', { method: 'DELETE', cookie: admin })).status).toBe(204);
    expect(Number(await sqlValue(s, 'SELECT COUNT(*) AS n FROM daily_totals WHERE device_id = ?', 'esp32_diario_01'))).toBe(0);
  });
});
