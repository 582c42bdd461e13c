// Every route that takes a time range answers absurd ones at once and never with a 500 (docs/api.md
// "Basics"): its cost grows with the data in the range or is capped by a limit, never with the
// span. Times must be ISO 8601 with an offset on the calendar, within years 0000-9999 in UTC
// (400 TIME_OUT_OF_RANGE beyond, which no answer could write back); dates Excel does not have
// (before 1900-03-01) are written as text in workbooks.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError, jsonOf } from '../helpers/api';
import { GATE_1, LEVEL_1 } from '../helpers/protocol';
import { startServer, type TestServer } from '../helpers/server';
import { sqlRun } from '../helpers/sql';
import { ensureOpenpyxl, insertReadings, parseCsv, readWorkbook } from '../history/history-helpers';
import { useTimeZone } from '../helpers/time-zone';

// Dates before 1900 in Madrid have a local mean time offset (-00:14:44): exports must cope.
useTimeZone('Europe/Madrid');

const TEN_MIN = 600_000;
const ISO_Z_4 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Every route with `from`/`to`, with the permission-holding query it needs. */
const RANGE_ROUTES = [
  '/api/v1/alarms',
  '/api/v1/alarms/stats',
  '/api/v1/audit',
  `/api/v1/devices/${LEVEL_1}/readings`,
  `/api/v1/devices/${LEVEL_1}/readings?points=10000`,
  `/api/v1/devices/${GATE_1}/readings?points=10000`,
  '/api/v1/export.csv',
  '/api/v1/export.xlsx',
  '/api/v1/export-alarms.csv',
  '/api/v1/export-alarms.xlsx',
];

interface PlantedAlarm {
  id: string;
  raisedAtMs: number;
  clearedAtMs?: number;
  ruleId?: string;
}

describe('time ranges on every route', () => {
  let s: TestServer;
  let admin: string;

  const get = (pathname: string) => s.fetch(pathname, { cookie: admin, signal: AbortSignal.timeout(10_000) });
  const withRange = (route: string, range: Record<string, string>) => `${route}${route.includes('?') ? '&' : '?'}${new URLSearchParams(range)}`;
  const plantAlarms = async (alarms: PlantedAlarm[]) => {
    for (const a of alarms) {
      await sqlRun(
        s,
        `INSERT INTO alarms (id, device_id, rule_id, kind, priority, state, raised_at_ms, cleared_at_ms, message) VALUES (?, ?, ?, 'level_high', 2, 'cleared', ?, ?, 'Nivel alto')`,
        a.id,
        LEVEL_1,
        a.ruleId ?? 'rul_planted',
        a.raisedAtMs,
        a.clearedAtMs ?? null,
      );
    }
  };

  beforeAll(async () => {
    ensureOpenpyxl();
    s = await startServer();
    admin = await s.login('admin');
    const recent = Date.now() - 24 * 3600_000;
    await insertReadings(s, [
      { deviceId: LEVEL_1, tsMs: recent, valueNum: 2.5 },
      { deviceId: GATE_1, tsMs: recent, valueText: 'abierta' },
    ]);
    // 11 alarms in one 10-minute window (a flood), one more three years later; three before 1900.
    const burst = Date.parse('2005-03-01T10:00:00Z');
    await plantAlarms([
      ...Array.from({ length: 11 }, (_, i) => ({ id: `alm_burst_${i}`, raisedAtMs: burst + i * 30_000, ruleId: `rul_burst_${i % 2}` })),
      { id: 'alm_lone', raisedAtMs: Date.parse('2008-07-01T00:00:00Z') },
      { id: 'alm_1850', raisedAtMs: Date.parse('1850-06-01T12:00:00Z'), clearedAtMs: Date.parse('1850-06-01T13:00:00Z') },
      { id: 'alm_0001', raisedAtMs: Date.parse('0001-01-01T00:00:00Z') },
      { id: 'alm_1900', raisedAtMs: Date.parse('1900-02-28T12:00:00Z') }, // a day off in Excel's 1900 calendar
    ]);
  });
  afterAll(async () => s?.close());

  it('alarm stats over ten years: the figures of the alarms in it, empty windows counted in the mean', async () => {
    // Before, a span over ~2.4 years was a 500: a spread of one number per window overflowed the stack.
    const from = '2001-01-01T00:00:00Z';
    const to = '2011-01-01T00:00:00Z';
    const { status, body } = await jsonOf(await get(withRange('/api/v1/alarms/stats', { from, to })));
    expect(status).toBe(200);
    const windows = Math.ceil((Date.parse(to) - Date.parse(from)) / TEN_MIN);
    expect(body).toMatchObject({ from: '2001-01-01T00:00:00.000Z', to: '2011-01-01T00:00:00.000Z', total: 12, perTenMinutes: { max: 11, mean: 12 / windows }, floods: 1 });
    expect(body.top[0]).toMatchObject({ ruleId: 'rul_burst_0', count: 6 });
    // Windows start at `from`: moved by 5 minutes the burst spans two windows, neither a flood.
    const shifted = await jsonOf(await get(withRange('/api/v1/alarms/stats', { from: '2001-01-01T00:05:00Z', to })));
    expect(shifted.body).toMatchObject({ total: 12, perTenMinutes: { max: 10 }, floods: 0 });
  });

  it.each([
    ['year 0001 to 9999', { from: '0001-01-01T00:00:00Z', to: '9999-12-31T00:00:00Z' }],
    ['the first and the last instant accepted', { from: '0000-01-01T00:00:00Z', to: '9999-12-31T23:59:59.999Z' }],
    ['29 February of year 0 (a leap year)', { from: '0000-02-29T00:00:00+01:00', to: '9999-12-31T23:59:59+01:00' }],
  ])('%s: 200 everywhere, fast, times written back as ISO 8601 UTC', async (_name, range) => {
    for (const route of RANGE_ROUTES) {
      const started = Date.now();
      const res = await get(withRange(route, range));
      const text = Buffer.from(await res.arrayBuffer());
      expect({ route, status: res.status, body: res.status === 200 ? '' : text.toString() }).toEqual({ route, status: 200, body: '' });
      expect(Date.now() - started, route).toBeLessThan(3000);
      if (res.headers.get('content-type')?.includes('json')) {
        const body = JSON.parse(text.toString()) as { from?: string; to?: string };
        if (body.from !== undefined) expect([body.from, body.to]).toEqual([new Date(range.from).toISOString(), new Date(range.to).toISOString()]);
      }
    }
  });

  it.each([
    ['a time past year 9999 in UTC', { from: '2026-01-01T00:00:00Z', to: '9999-12-31T23:59:59-23:59' }, 400, 'TIME_OUT_OF_RANGE'],
    ['a time before year 0000 in UTC', { from: '0000-01-01T00:00:00+00:01', to: '2026-01-01T00:00:00Z' }, 400, 'TIME_OUT_OF_RANGE'],
    ['the last instant JavaScript has', { from: '+275760-09-13T00:00:00Z', to: '2026-01-01T00:00:00Z' }, 400, 'VALIDATION_FAILED'],
    ['a leap second (Date.parse says NaN)', { from: '2026-06-30T23:59:60Z', to: '2026-12-31T00:00:00Z' }, 400, 'VALIDATION_FAILED'],
    ['a day not on the calendar', { from: '2026-02-30T00:00:00Z', to: '2026-12-31T00:00:00Z' }, 400, 'VALIDATION_FAILED'],
    ['no offset', { from: '2026-01-01T00:00:00', to: '2026-12-31T00:00:00Z' }, 400, 'VALIDATION_FAILED'],
    ['from after to', { from: '9999-01-01T00:00:00Z', to: '0001-01-01T00:00:00Z' }, 400, 'RANGE_INVALID'],
  ])('%s: the same refusal everywhere', async (_name, range, status, code) => {
    for (const route of RANGE_ROUTES) {
      const body = await expectApiError(await get(withRange(route, range)), status, code);
      expect(body, route).toMatchObject({ code });
    }
  });

  it('a range with only `to` at the start of year 0000 begins there, not 24 hours before', async () => {
    for (const route of ['/api/v1/alarms/stats', `/api/v1/devices/${LEVEL_1}/readings?points=100`]) {
      const { status, body } = await jsonOf(await get(withRange(route, { to: '0000-01-01T06:00:00Z' })));
      expect({ route, status, from: body.from }).toEqual({ route, status: 200, from: '0000-01-01T00:00:00.000Z' });
      expect(body.to).toMatch(ISO_Z_4);
    }
    await expectApiError(await get(withRange('/api/v1/alarms/stats', { to: '0000-01-01T00:00:00Z' })), 400, 'RANGE_INVALID');
  });

  it('alarms raised before 1900: text in the workbook (Excel has no such dates), the same text in the CSV', async () => {
    const range = { from: '0001-01-01T00:00:00Z', to: '1901-01-01T00:00:00Z' };
    const csvRes = await get(withRange('/api/v1/export-alarms.csv', range));
    expect(csvRes.status).toBe(200);
    const [, ...csvRows] = parseCsv(new TextDecoder('utf-8', { ignoreBOM: true }).decode(await csvRes.arrayBuffer()).slice(1));
    expect(csvRows).toHaveLength(3);
    for (const row of csvRows) expect(row[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/);
    expect(csvRows.map((r) => r[0]!.slice(0, 4))).toEqual(['1900', '1850', '0000']); // year 0001 at 00:00 UTC is still year 0 in Madrid

    const xlsxRes = await get(withRange('/api/v1/export-alarms.xlsx', range));
    expect(xlsxRes.status).toBe(200);
    const file = path.join(s.dataDir, 'old-alarms.xlsx');
    fs.writeFileSync(file, Buffer.from(await xlsxRes.arrayBuffer()));
    const [, ...rows] = readWorkbook(file)[0]!.rows;
    expect(rows.map((r) => r[0])).toEqual(csvRows.map((r) => ({ t: 'string', v: r[0] })));
    expect(rows[1]![8]).toEqual({ t: 'string', v: csvRows[1]![8] }); // Normalizada of the 1850 alarm

    // A date Excel has stays a date cell.
    const recent = await get(withRange('/api/v1/export-alarms.xlsx', { from: '2001-01-01T00:00:00Z', to: '2011-01-01T00:00:00Z' }));
    fs.writeFileSync(file, Buffer.from(await recent.arrayBuffer()));
    expect(readWorkbook(file)[0]!.rows[1]![0]).toMatchObject({ t: 'date' });
  });
});
