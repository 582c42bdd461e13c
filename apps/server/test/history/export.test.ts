import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvField } from '../../src/lib/csv';
import { startServer, type TestServer } from '../helpers/server';
import { useTimeZone } from '../helpers/time-zone';
import {
  createLevelSensor,
  ensureOpenpyxl,
  insertReadings,
  parseCsv,
  readWorkbook,
  wallClock,
  type SeedReading,
  type XSheet,
} from './history-helpers';

// Exports write dates in the server's time zone: a zone with an offset and summer time shows
// that dates are local wall-clock times.
const ZONE = 'Europe/Madrid';
useTimeZone(ZONE);

const WINTER = Date.parse('2026-01-15T10:00:00.000Z'); // 11:00 in Madrid (+01:00)
const SUMMER = Date.parse('2026-07-15T10:00:00.000Z'); // 12:00 in Madrid (+02:00)
const MIN = 60_000;

const LONG_NAME = 'Tanque: Norte/Sur [A]*?\\ Principal de Reserva';
const LONG_SHEET = 'Tanque- Norte-Sur -A---- Princ'; // replaced, then cut to 30
const TWIN_A = 'Sensor de nivel del depósito principal A';
const TWIN_B = 'SENSOR DE NIVEL DEL DEPÓSITO PRINCIPAL B';

describe('Excel and CSV export', () => {
  let s: TestServer;
  let viewer: string;
  let tmp: string;

  const nivel01: SeedReading[] = [
    { deviceId: 'esp32_nivel_01', tsMs: WINTER, valueNum: 2.5, status: 'normal' },
    { deviceId: 'esp32_nivel_01', tsMs: WINTER + 3000, valueNum: 7.25, status: 'warning' },
    { deviceId: 'esp32_nivel_01', tsMs: SUMMER, valueNum: 9, status: 'critical' },
    { deviceId: 'esp32_nivel_01', tsMs: SUMMER + 3000, valueNum: 12.5, status: 'fault' },
  ];
  const gate: SeedReading[] = [
    { deviceId: 'esp32_compuerta_01', tsMs: WINTER + MIN, valueText: 'abierta', status: 'normal' },
    { deviceId: 'esp32_compuerta_01', tsMs: WINTER + 2 * MIN, valueText: 'falla', status: 'fault' },
  ];

  async function download(query: string, cookie = viewer): Promise<{ res: Response; file: string }> {
    const res = await s.fetch(`/api/v1/export.xlsx${query}`, { cookie });
    const file = path.join(tmp, `export-${Math.random().toString(36).slice(2)}.xlsx`);
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    return { res, file };
  }
  async function workbook(query = ''): Promise<XSheet[]> {
    const { res, file } = await download(query);
    expect(res.status).toBe(200);
    return readWorkbook(file);
  }

  beforeAll(async () => {
    ensureOpenpyxl();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-export-'));
    s = await startServer();
    viewer = await s.login('viewer');
    const admin = await s.login('admin');
    await createLevelSensor(s, admin, 'tanque_largo', LONG_NAME);
    await createLevelSensor(s, admin, 'gemelo_a', TWIN_A);
    await createLevelSensor(s, admin, 'gemelo_b', TWIN_B);
    await createLevelSensor(s, admin, 'retirado_01', 'Sensor Retirado');
    await createLevelSensor(s, admin, 'sin_datos', 'Sensor Sin Datos');
    await createLevelSensor(s, admin, 'pozo_01', 'Pozo & Tanque <Norte>');
    await insertReadings(s, [
      ...nivel01,
      ...gate,
      { deviceId: 'tanque_largo', tsMs: WINTER + 10 * MIN, valueNum: 1 },
      { deviceId: 'gemelo_a', tsMs: WINTER + 11 * MIN, valueNum: 1.5 },
      { deviceId: 'gemelo_b', tsMs: WINTER + 12 * MIN, valueNum: 2.5 },
      { deviceId: 'retirado_01', tsMs: WINTER + 13 * MIN, valueNum: 3.5, status: 'warning' },
      { deviceId: 'pozo_01', tsMs: WINTER + 14 * MIN, valueNum: 0.5 },
    ]);
    const retire = await s.fetch('/api/v1/devices/retirado_01', { method: 'DELETE', cookie: admin });
    expect(retire.status).toBe(204);
  });
  afterAll(async () => {
    await s?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('sends an attachment named Historial_Sensores_Agua.xlsx', async () => {
    const { res } = await download('');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="Historial_Sensores_Agua.xlsx"');
  });

  it('has one sheet per device with rows, named by the rules, skipping devices without history', async () => {
    const sheets = await workbook();
    expect(sheets.map((x) => x.name)).toEqual([
      'Sensor Nivel Agua Residual',
      'Compuerta Canal A',
      LONG_SHEET,
      'Sensor de nivel del depósito p',
      'SENSOR DE NIVEL DEL DEPÓSI (2)', // same name as the one before regardless of case
      'Sensor Retirado', // retired: its history is still exported
      'Pozo & Tanque <Norte>', // XML-special characters survive
    ]);
    for (const sheet of sheets) expect(sheet.name.length).toBeLessThanOrEqual(30);
  });

  it('writes the header, then the rows oldest first with dates as local date cells, numbers and Spanish states', async () => {
    const [level, gates] = await workbook();
    const header = level!.rows[0]!.map((c) => (c.t === 'string' ? c.v : null));
    // The seed's four columns, then the water ones: the demo wet well has a geometry (24 m²).
    expect(header).toEqual(['Fecha y Hora', 'Valor', 'Unidad', 'Estado', 'Volumen (m³)', 'Lectura bruta (m)']);
    expect(level!.rows).toHaveLength(1 + nivel01.length);
    const data = level!.rows.slice(1);
    data.forEach((row, i) => {
      const date = row[0]!;
      expect(date.t).toBe('date');
      if (date.t === 'date') {
        expect(date.v).toBe(wallClock(nivel01[i]!.tsMs, ZONE));
        expect(date.fmt).toMatch(/yy.*hh:mm/);
      }
      expect(row[1]).toEqual({ t: 'number', v: nivel01[i]!.valueNum });
      expect(row[2]).toEqual({ t: 'string', v: 'm' });
      // A fault reading counts in no figure: no volume; what was sent is still there.
      expect(row[4] ?? { t: 'null' }).toEqual(nivel01[i]!.status === 'fault' ? { t: 'null' } : { t: 'number', v: 24 * nivel01[i]!.valueNum! });
      expect(row[5]).toEqual({ t: 'number', v: nivel01[i]!.valueNum });
    });
    // Winter and summer time: 11:00 (+01:00) and 12:00 (+02:00) local.
    expect(data[0]![0]).toMatchObject({ v: '2026-01-15T11:00:00.000' });
    expect(data[2]![0]).toMatchObject({ v: '2026-07-15T12:00:00.000' });
    expect(data.map((r) => (r[3]!.t === 'string' ? r[3]!.v : null))).toEqual(['Normal', 'Advertencia', 'Crítico', 'Falla']);

    expect(gates!.rows[0]!.map((c) => (c.t === 'string' ? c.v : null))).toEqual(['Fecha y Hora', 'Valor', 'Unidad', 'Estado']);
    expect(gates!.rows.slice(1).map((r) => [r[0]!.t, r[1], r[2] ?? { t: 'null' }, r[3]])).toEqual([
      ['date', { t: 'string', v: 'abierta' }, { t: 'null' }, { t: 'string', v: 'Normal' }],
      ['date', { t: 'string', v: 'falla' }, { t: 'null' }, { t: 'string', v: 'Falla' }],
    ]);
  });

  it('filters by range (from inclusive, to exclusive) and by deviceIds, in the order given', async () => {
    const from = encodeURIComponent('2026-01-15T11:00:00+01:00'); // = WINTER
    const to = encodeURIComponent('2026-01-15T10:01:00Z'); // = WINTER + 1 min: the gate's first row is out
    let sheets = await workbook(`?from=${from}&to=${to}`);
    expect(sheets.map((x) => [x.name, x.rows.length - 1])).toEqual([['Sensor Nivel Agua Residual', 2]]);

    sheets = await workbook('?deviceIds=esp32_compuerta_01,esp32_nivel_01,esp32_nivel_02');
    expect(sheets.map((x) => [x.name, x.rows.length - 1])).toEqual([
      ['Compuerta Canal A', 2],
      ['Sensor Nivel Agua Residual', 4],
    ]);
  });

  it('continues a device on further sheets when one is full', async () => {
    const admin = await s.login('admin');
    await createLevelSensor(s, admin, 'desborde_01', 'Sensor Desborde');
    const rows = Array.from({ length: 7 }, (_, i) => ({ deviceId: 'desborde_01', tsMs: WINTER + i * 1000, valueNum: i }));
    await insertReadings(s, rows.slice().reverse()); // stored out of order: the export sorts by time
    const limits = s.modules.history.service.options;
    const saved = limits.maxRowsPerSheet;
    limits.maxRowsPerSheet = 3;
    try {
      const sheets = await workbook('?deviceIds=desborde_01');
      expect(sheets.map((x) => x.name)).toEqual(['Sensor Desborde', 'Sensor Desborde (2)', 'Sensor Desborde (3)']);
      expect(sheets.map((x) => x.rows.length)).toEqual([4, 4, 2]);
      for (const sheet of sheets) expect(sheet.rows[0]!.map((c) => (c.t === 'string' ? c.v : ''))).toEqual(['Fecha y Hora', 'Valor', 'Unidad', 'Estado']);
      const values = sheets.flatMap((x) => x.rows.slice(1).map((r) => (r[1]!.t === 'number' ? r[1]!.v : null)));
      expect(values).toEqual([0, 1, 2, 3, 4, 5, 6]);
    } finally {
      limits.maxRowsPerSheet = saved;
    }
  });

  it('answers 404 NO_DATA when nothing is in range, before streaming', async () => {
    for (const query of ['?from=2020-01-01T00:00:00Z&to=2020-02-01T00:00:00Z', '?deviceIds=esp32_nivel_02,sin_datos']) {
      for (const ext of ['xlsx', 'csv']) {
        const res = await s.fetch(`/api/v1/export.${ext}${query}`, { cookie: viewer });
        expect(res.status).toBe(404);
        expect(res.headers.get('content-type')).toMatch(/application\/json/);
        expect(await res.json()).toEqual({ error: 'No hay lecturas para exportar en ese rango.', code: 'NO_DATA' });
      }
    }
  });

  it('refuses a bad range (400), an unknown device (404) and anonymous callers (401)', async () => {
    const cases: Array<[string, number, string]> = [
      ['?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', 400, 'RANGE_INVALID'],
      ['?from=2026-01-01T00:00:00Z&to=2026-01-01T00:00:00Z', 400, 'RANGE_INVALID'],
      ['?from=2026-01-01T00:00:00', 400, 'VALIDATION_FAILED'],
      ['?to=2026-01-01', 400, 'VALIDATION_FAILED'],
      ['?deviceIds=esp32_nivel_01,no_existe', 404, 'DEVICE_NOT_FOUND'],
    ];
    for (const ext of ['xlsx', 'csv']) {
      for (const [query, status, code] of cases) {
        const res = await s.fetch(`/api/v1/export.${ext}${query}`, { cookie: viewer });
        expect([ext, query, res.status]).toEqual([ext, query, status]);
        expect(((await res.json()) as { code: string }).code).toBe(code);
      }
      expect((await s.fetch(`/api/v1/export.${ext}`)).status).toBe(401);
    }
  });

  it('exports the same rows as CSV: BOM, header, device ids, ISO dates with the local offset', async () => {
    const res = await s.fetch('/api/v1/export.csv?deviceIds=esp32_nivel_01,esp32_compuerta_01', { cookie: viewer });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="Historial_Sensores_Agua.csv"');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parseCsv(text)).toEqual([
      ['Dispositivo', 'Fecha y Hora', 'Valor', 'Unidad', 'Estado', 'Volumen (m³)', 'Lectura bruta (m)'],
      ['esp32_nivel_01', '2026-01-15T11:00:00.000+01:00', '2.5', 'm', 'Normal', '60', '2.5'],
      ['esp32_nivel_01', '2026-01-15T11:00:03.000+01:00', '7.25', 'm', 'Advertencia', '174', '7.25'],
      ['esp32_nivel_01', '2026-07-15T12:00:00.000+02:00', '9', 'm', 'Crítico', '216', '9'],
      ['esp32_nivel_01', '2026-07-15T12:00:03.000+02:00', '12.5', 'm', 'Falla', '', '12.5'],
      ['esp32_compuerta_01', '2026-01-15T11:01:00.000+01:00', 'abierta', '', 'Normal', '', ''],
      ['esp32_compuerta_01', '2026-01-15T11:02:00.000+01:00', 'falla', '', 'Falla', '', ''],
    ]);
    // Without a level sensor with a geometry among the devices, the seed's columns alone.
    const gateOnly = await s.fetch('/api/v1/export.csv?deviceIds=esp32_compuerta_01', { cookie: viewer });
    expect(parseCsv(Buffer.from(await gateOnly.arrayBuffer()).subarray(3).toString('utf8'))[0]).toEqual(['Dispositivo', 'Fecha y Hora', 'Valor', 'Unidad', 'Estado']);
    // Every date names its offset and means the stored instant.
    expect(Date.parse('2026-07-15T12:00:00.000+02:00')).toBe(SUMMER);
  });

  it('quotes CSV fields that need it', () => {
    expect(csvField('abierta')).toBe('abierta');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('dice "hola"')).toBe('"dice ""hola"""');
    expect(csvField('dos\nlíneas')).toBe('"dos\nlíneas"');
    expect(parseCsv(`${['x', csvField('a,"b"'), csvField('c\r\nd')].join(',')}\r\n`)).toEqual([['x', 'a,"b"', 'c\r\nd']]);
  });
});

describe('export when the client goes away', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(async () => s?.close());

  it('stops reading rows and keeps serving', async () => {
    const start = Date.parse('2026-02-01T00:00:00Z');
    await insertReadings(
      s,
      Array.from({ length: 200_000 }, (_, i) => ({ deviceId: 'esp32_nivel_01', tsMs: start + i * 3000, valueNum: (i % 1000) / 100 })),
    );
    const history = s.modules.history.service;
    const original = history.exportRows.bind(history);
    let batches = 0;
    let closed = 0;
    // Only the export's own reads count: the water and overflow jobs read the same readings
    // through this method in the background, and its range ends where no job's does.
    const exportToMs = start + 200_000 * 3000 + 1234;
    history.exportRows = async function* (deviceId, range) {
      if (range.toMs !== exportToMs) {
        yield* original(deviceId, range);
        return;
      }
      try {
        for await (const batch of original(deviceId, range)) {
          batches++;
          yield batch;
        }
      } finally {
        closed++;
      }
    };
    const cookie = await s.login('viewer');
    const abort = new AbortController();
    const res = await s.fetch(`/api/v1/export.xlsx?to=${encodeURIComponent(new Date(exportToMs).toISOString())}`, { cookie, signal: abort.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await reader.read();
    abort.abort();
    await expect.poll(() => closed, { timeout: 5000 }).toBe(1);
    const total = 200_000 / history.options.exportBatchSize;
    expect(batches).toBeLessThan(total);
    const seen = batches;
    await new Promise((r) => setTimeout(r, 300));
    expect(batches).toBe(seen);

    history.exportRows = original;
    expect((await s.fetch('/api/health')).status).toBe(200);
    const csv = await s.fetch(`/api/v1/export.csv?to=${encodeURIComponent(new Date(start + 3000).toISOString())}`, { cookie });
    expect(parseCsv((await csv.text()).slice(1))).toHaveLength(2);
  });
});
