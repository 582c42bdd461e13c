import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reading } from '@agua/shared';
import { demoKey, startServer, type TestServer } from '../helpers/server';
import { sqlColumn } from '../helpers/sql';
import { countReadings, createLevelSensor, insertReadings, type SeedReading } from './history-helpers';

interface Page {
  items: Reading[];
  nextCursor: string | null;
}
interface Trend {
  mode: 'buckets';
  from: string;
  to: string;
  bucketMs: number;
  items: Array<{ ts: string; min: number; max: number; mean: number; count: number }>;
}

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const HOUR = 3600_000;
const DAY = 24 * HOUR;

describe('device readings: pages and trends', () => {
  let s: TestServer;
  let viewer: string;
  const get = async <T>(path: string): Promise<{ status: number; body: T }> => {
    const res = await s.fetch(path, { cookie: viewer });
    return { status: res.status, body: (await res.json()) as T };
  };

  beforeAll(async () => {
    s = await startServer({ RETENTION_DAYS: '30' });
    viewer = await s.login('viewer');
  });
  afterAll(async () => s?.close());

  it('returns readings posted through telemetry, oldest first, in the API shape', async () => {
    const now = Date.now();
    const res = await s.fetch('/api/v1/telemetry', {
      method: 'POST',
      headers: { 'x-api-key': demoKey('esp32_nivel_02') },
      json: [
        { deviceId: 'esp32_nivel_02', type: 'level_sensor', ts: now - 2000, data: { value: 4.5, unit: 'm' } },
        { deviceId: 'esp32_nivel_02', type: 'level_sensor', ts: now - 4000, data: { value: 1.25, unit: 'm' } },
      ],
    });
    expect(res.status).toBeLessThan(300);
    const { status, body } = await get<Page>('/api/v1/devices/esp32_nivel_02/readings');
    expect(status).toBe(200);
    expect(body).toEqual({
      items: [
        { ts: new Date(now - 4000).toISOString(), value: 1.25, unit: 'm', status: 'normal', raw: 1.25 },
        { ts: new Date(now - 2000).toISOString(), value: 4.5, unit: 'm', status: 'critical', raw: 4.5 },
      ],
      nextCursor: null,
    });
  });

  it('pages with a cursor without gaps or repeats, even across equal timestamps', async () => {
    // 2,500 readings, three per timestamp, stored out of time order.
    const rows: SeedReading[] = [];
    for (let i = 0; i < 2500; i++) rows.push({ deviceId: 'esp32_nivel_01', tsMs: T0 + Math.floor(i / 3) * 3000, valueNum: i / 1000 });
    await insertReadings(s, rows.slice(1200).concat(rows.slice(0, 1200)));
    const from = encodeURIComponent(new Date(T0).toISOString());
    const to = encodeURIComponent(new Date(T0 + DAY).toISOString());
    const seen: Reading[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = `?from=${from}&to=${to}&limit=700${cursor ? `&cursor=${cursor}` : ''}`;
      const { status, body } = await get<Page>(`/api/v1/devices/esp32_nivel_01/readings${q}`);
      expect(status).toBe(200);
      expect(body.items.length).toBeLessThanOrEqual(700);
      seen.push(...body.items);
      cursor = body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(4);
    expect(seen).toHaveLength(2500);
    const values = seen.map((r) => r.value as number);
    expect(new Set(values).size).toBe(2500);
    const times = seen.map((r) => Date.parse(r.ts));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(values.slice().sort((a, b) => a - b)).toEqual(rows.map((r) => r.valueNum));
  });

  it('defaults to 1000 per page over the whole history and honours from/to', async () => {
    const { body } = await get<Page>('/api/v1/devices/esp32_nivel_01/readings');
    expect(body.items).toHaveLength(1000);
    expect(body.nextCursor).not.toBeNull();
    const from = encodeURIComponent(new Date(T0 + 3000).toISOString()); // inclusive
    const to = encodeURIComponent(new Date(T0 + 9000).toISOString()); // exclusive
    const narrow = await get<Page>(`/api/v1/devices/esp32_nivel_01/readings?from=${from}&to=${to}`);
    expect(narrow.body.items.map((r) => r.ts)).toEqual([3000, 3000, 3000, 6000, 6000, 6000].map((d) => new Date(T0 + d).toISOString()));
  });

  it('downsamples in at most N buckets that keep each bucket’s extremes', async () => {
    await createLevelSensor(s, await s.login('admin'), 'tendencia_01', 'Sensor Tendencia');
    // One day of 3-second readings: a gentle wave, one spike and one dip.
    const start = T0 + 10 * DAY;
    const rows: SeedReading[] = [];
    for (let i = 0; i < 28_800; i++) rows.push({ deviceId: 'tendencia_01', tsMs: start + i * 3000, valueNum: 2 + Math.sin(i / 500) });
    rows[12_345]!.valueNum = 4.9;
    rows[20_000]!.valueNum = 0.05;
    await insertReadings(s, rows);
    const from = encodeURIComponent(new Date(start).toISOString());
    const to = encodeURIComponent(new Date(start + DAY).toISOString());
    for (const points of [1, 7, 50, 333, 2000]) {
      const { status, body } = await get<Trend>(`/api/v1/devices/tendencia_01/readings?from=${from}&to=${to}&points=${points}`);
      expect(status).toBe(200);
      expect(body.mode).toBe('buckets');
      expect(body.items.length).toBeGreaterThan(0);
      expect(body.items.length).toBeLessThanOrEqual(points);
      expect(body.bucketMs).toBe(Math.ceil(DAY / points));
      expect(body.items.reduce((n, b) => n + b.count, 0)).toBe(28_800);
      const spike = body.items.find((b) => b.max === 4.9)!;
      const dip = body.items.find((b) => b.min === 0.05)!;
      expect(spike).toBeDefined();
      expect(dip).toBeDefined();
      const spikeTs = start + 12_345 * 3000;
      expect(Date.parse(spike.ts)).toBeLessThanOrEqual(spikeTs);
      expect(spikeTs).toBeLessThan(Date.parse(spike.ts) + body.bucketMs);
      for (const b of body.items) {
        expect(b.min).toBeLessThanOrEqual(b.mean);
        expect(b.mean).toBeLessThanOrEqual(b.max);
        expect((Date.parse(b.ts) - start) % body.bucketMs).toBe(0);
      }
    }
  });

  it('trends the last 24 hours by default', async () => {
    await createLevelSensor(s, await s.login('admin'), 'tendencia_02', 'Sensor Reciente');
    const now = Date.now();
    await insertReadings(s, [
      { deviceId: 'tendencia_02', tsMs: now - 2 * DAY, valueNum: 1 },
      { deviceId: 'tendencia_02', tsMs: now - HOUR, valueNum: 2 },
      { deviceId: 'tendencia_02', tsMs: now - 2 * HOUR, valueNum: 3 },
    ]);
    const { body } = await get<Trend>('/api/v1/devices/tendencia_02/readings?points=10');
    expect(body.items.reduce((n, b) => n + b.count, 0)).toBe(2);
    expect(Date.parse(body.to) - Date.parse(body.from)).toBe(DAY);
  });

  it('gives a gate’s state changes with points', async () => {
    const states = ['cerrada', 'cerrada', 'abriendo', 'abierta', 'abierta', 'abierta', 'cerrando', 'cerrada', 'falla'];
    await insertReadings(
      s,
      states.map((st, i) => ({ deviceId: 'esp32_compuerta_02', tsMs: T0 + i * 3000, valueText: st, status: st === 'falla' ? 'fault' : 'normal' })),
    );
    const from = encodeURIComponent(new Date(T0).toISOString());
    const to = encodeURIComponent(new Date(T0 + HOUR).toISOString());
    const { status, body } = await get<{ mode: string; items: Reading[]; truncated: boolean }>(
      `/api/v1/devices/esp32_compuerta_02/readings?from=${from}&to=${to}&points=100`,
    );
    expect(status).toBe(200);
    expect(body.mode).toBe('changes');
    expect(body.truncated).toBe(false);
    expect(body.items.map((r) => [r.value, r.unit, r.status])).toEqual([
      ['cerrada', null, 'normal'],
      ['abriendo', null, 'normal'],
      ['abierta', null, 'normal'],
      ['cerrando', null, 'normal'],
      ['cerrada', null, 'normal'],
      ['falla', null, 'fault'],
    ]);
    const cut = await get<{ items: Reading[]; truncated: boolean }>(`/api/v1/devices/esp32_compuerta_02/readings?from=${from}&to=${to}&points=2`);
    expect(cut.body.items.map((r) => r.value)).toEqual(['cerrada', 'abriendo']);
    expect(cut.body.truncated).toBe(true);
    // Without points a gate's readings are a plain page.
    const page = await get<Page>(`/api/v1/devices/esp32_compuerta_02/readings?from=${from}&to=${to}&limit=3`);
    expect(page.body.items).toEqual(
      ['cerrada', 'cerrada', 'abriendo'].map((value, i) => ({ ts: new Date(T0 + i * 3000).toISOString(), value, unit: null, status: 'normal' })),
    );
    expect(page.body.nextCursor).toEqual(expect.any(String));
  });

  it('finds every gate state change over many slices, exactly as a reading-by-reading comparison', async () => {
    const admin = await s.login('admin');
    const created = await s.fetch('/api/v1/devices', {
      method: 'POST',
      cookie: admin,
      json: { id: 'compuerta_larga', name: 'Compuerta Larga', location: 'Pruebas', type: 'motorized_gate' },
    });
    expect(created.status).toBe(201);
    // Runs of random length (1..300) of random states, a same-state run now and then (no change).
    const STATES = ['abierta', 'cerrada', 'abriendo', 'cerrando', 'falla'];
    let seed = 42;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    const start = T0 + 40 * DAY;
    const rows: SeedReading[] = [];
    while (rows.length < 40_000) { // > 500 slices of ~64: two queries
      const state = STATES[rand(STATES.length)]!;
      for (let i = rand(300) + 1; i > 0; i--) {
        rows.push({ deviceId: 'compuerta_larga', tsMs: start + rows.length * 3000, valueText: state, status: state === 'falla' ? 'fault' : 'normal' });
      }
    }
    await insertReadings(s, rows);
    const expected = rows.filter((r, i) => i === 0 || r.valueText !== rows[i - 1]!.valueText).map((r) => [new Date(r.tsMs).toISOString(), r.valueText]);
    expect(expected.length).toBeGreaterThan(100);

    const from = encodeURIComponent(new Date(start).toISOString());
    const to = encodeURIComponent(new Date(start + rows.length * 3000).toISOString());
    const all = await get<{ mode: string; items: Reading[]; truncated: boolean }>(`/api/v1/devices/compuerta_larga/readings?from=${from}&to=${to}&points=10000`);
    expect(all.body.truncated).toBe(false);
    expect(all.body.items.map((r) => [r.ts, r.value])).toEqual(expected);

    const some = await get<{ items: Reading[]; truncated: boolean }>(`/api/v1/devices/compuerta_larga/readings?from=${from}&to=${to}&points=50`);
    expect(some.body.truncated).toBe(true);
    expect(some.body.items.map((r) => [r.ts, r.value])).toEqual(expected.slice(0, 50));

    // A range starting inside a run: its first reading counts as a change.
    const mid = encodeURIComponent(new Date(start + 10_001 * 3000).toISOString());
    const tail = await get<{ items: Reading[] }>(`/api/v1/devices/compuerta_larga/readings?from=${mid}&to=${to}&points=10000`);
    expect(tail.body.items[0]!.ts).toBe(new Date(start + 10_001 * 3000).toISOString());
    expect(tail.body.items.slice(1).map((r) => [r.ts, r.value])).toEqual(expected.filter(([ts]) => Date.parse(ts!) > start + 10_001 * 3000));
  });

  it('keeps a retired device readable', async () => {
    const admin = await s.login('admin');
    await createLevelSensor(s, admin, 'retirado_02', 'Sensor Retirado');
    await insertReadings(s, [{ deviceId: 'retirado_02', tsMs: T0, valueNum: 1 }]);
    expect((await s.fetch('/api/v1/devices/retirado_02', { method: 'DELETE', cookie: admin })).status).toBe(204);
    const { status, body } = await get<Page>('/api/v1/devices/retirado_02/readings');
    expect(status).toBe(200);
    expect(body.items).toHaveLength(1);
  });

  it('refuses bad input, unknown devices and anonymous callers', async () => {
    const cases: Array<[string, number, string]> = [
      ['/api/v1/devices/no_existe/readings', 404, 'DEVICE_NOT_FOUND'],
      ['/api/v1/devices/esp32_nivel_01/readings?from=2026-03-01T00:00:00', 400, 'VALIDATION_FAILED'],
      ['/api/v1/devices/esp32_nivel_01/readings?to=yesterday', 400, 'VALIDATION_FAILED'],
      ['/api/v1/devices/esp32_nivel_01/readings?from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z', 400, 'RANGE_INVALID'],
      ['/api/v1/devices/esp32_nivel_01/readings?from=2026-03-01T01:00:00%2B01:00&to=2026-03-01T00:00:00Z', 400, 'RANGE_INVALID'],
      ['/api/v1/devices/esp32_nivel_01/readings?limit=0', 400, 'VALIDATION_FAILED'],
      ['/api/v1/devices/esp32_nivel_01/readings?limit=10001', 400, 'VALIDATION_FAILED'],
      ['/api/v1/devices/esp32_nivel_01/readings?points=0', 400, 'VALIDATION_FAILED'],
      ['/api/v1/devices/esp32_nivel_01/readings?points=10001', 400, 'VALIDATION_FAILED'],
      ['/api/v1/devices/esp32_nivel_01/readings?cursor=bm9wZQ', 400, 'VALIDATION_FAILED'],
      ['/api/v1/devices/esp32_nivel_01/readings?points=10&cursor=MTAuMQ', 400, 'VALIDATION_FAILED'],
    ];
    for (const [path, status, code] of cases) {
      const res = await get<{ code: string; error: string }>(path);
      expect([path, res.status, res.body.code]).toEqual([path, status, code]);
      expect(typeof res.body.error).toBe('string');
    }
    expect((await s.fetch('/api/v1/devices/esp32_nivel_01/readings')).status).toBe(401);
  });
});

describe('retention', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ RETENTION_DAYS: '30' });
  });
  afterAll(async () => s?.close());

  it('deletes readings older than RETENTION_DAYS, in chunks, and keeps the recent ones', async () => {
    const now = Date.now();
    const old: SeedReading[] = [];
    for (let i = 0; i < 12_001; i++) old.push({ deviceId: i % 2 ? 'esp32_nivel_01' : 'esp32_compuerta_01', tsMs: now - 31 * DAY - i * 1000, valueNum: 1 });
    const recent: SeedReading[] = [
      { deviceId: 'esp32_nivel_01', tsMs: now - 29 * DAY, valueNum: 2 },
      { deviceId: 'esp32_nivel_01', tsMs: now - HOUR, valueNum: 3 },
      { deviceId: 'esp32_compuerta_01', tsMs: now - DAY, valueText: 'abierta' },
    ];
    await insertReadings(s, [...old, ...recent]);
    expect(await countReadings(s)).toBe(12_004);

    expect(await s.modules.history.retention.runOnce(now)).toBe(12_001);
    expect(await countReadings(s)).toBe(3);
    const kept = (await sqlColumn(s, 'SELECT ts_ms FROM readings ORDER BY ts_ms')).map(Number);
    expect(kept).toEqual(recent.map((r) => r.tsMs).sort((a, b) => a - b));
    expect(await s.modules.history.retention.runOnce(now)).toBe(0);
  });
});
