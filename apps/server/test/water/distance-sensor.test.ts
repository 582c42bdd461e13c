// docs/water.md "Distance sensors": a level sensor that measures the distance down to the water
// stores the level (mounting height − distance + zero offset) by the geometry version valid at the
// reading's time, keeps what it sent as `raw`, and is judged (status, alarms) on the level.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevice, jsonOf } from '../helpers/api';
import { levelMsg, openLive, postTelemetry, type LiveSocket } from '../helpers/protocol';
import { startServer, tempDataDir, type TestServer } from '../helpers/server';

const DEVICE = 'esp32_geo_distancia';

describe('distance sensors', () => {
  const dataDir = tempDataDir();
  let s: TestServer;
  let admin: string;
  let key: string;
  let live: LiveSocket;

  const readings = async (query = '') => {
    const { status, body } = await jsonOf<{ items: Record<string, unknown>[] }>(await s.fetch(`/api/v1/devices/${DEVICE}/readings?limit=100${query}`, { cookie: admin }));
    expect(status).toBe(200);
    return body.items;
  };
  const post = (value: number, ts: number) => postTelemetry(s, levelMsg(DEVICE, value, { ts }), { key });

  beforeAll(async () => {
    s = await startServer({}, { dataDir });
    admin = await s.login('admin');
    // maxLevel 4 m: warning at 60 % (2.4 m), critical at 85 % (3.4 m).
    ({ apiKey: key } = await createDevice(s, admin, { id: DEVICE, name: 'Depósito ultrasónico', location: 'Prueba', type: 'level_sensor', waterType: 'clean', config: { maxLevel: 4 } }));
    const r = await openLive(s, { cookie: admin });
    if (!r.live) throw new Error(`live socket refused: ${r.status}`);
    live = r.live;
  });
  afterAll(async () => {
    live?.close();
    await s?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a level sensor never calibrated stores what it sends, and raw equals the value', async () => {
    const ts = Date.now() - 60_000;
    expect((await post(1.25, ts)).status).toBe(202);
    expect(await readings()).toEqual([{ ts: new Date(ts).toISOString(), value: 1.25, unit: 'm', status: 'normal', raw: 1.25 }]);
  });

  it('mounted at 5 m with a 0.1 m offset, a distance of 1.5 m is stored as 3.6 m, judged critical, sent back as raw everywhere', async () => {
    const put = await s.fetch(`/api/v1/devices/${DEVICE}/geometry`, { method: 'PUT', cookie: admin, json: { sensor: 'distance', mountHeightM: 5, zeroOffsetM: 0.1, shape: { kind: 'rectangular', areaM2: 10 } } });
    expect(put.status).toBe(200);
    const ts = Date.now() - 1000;
    const mark = live.frames.length;
    expect((await post(1.5, ts)).status).toBe(202);

    const level = 5 - 1.5 + 0.1;
    const expected = { ts: new Date(ts).toISOString(), value: level, unit: 'm', status: 'critical', raw: 1.5 };
    expect((await readings()).at(-1)).toEqual(expected);
    // This reading's frame: the one before it may come late on a busy machine (frames are coalesced).
    const frame = await live.next((f) => f.type === 'reading.created' && f.data.deviceId === DEVICE && (f.data.reading as { ts: string }).ts === expected.ts, 5000, mark);
    expect(frame.data.reading).toEqual(expected);
    expect(frame.data.analytics).toMatchObject({ volumeM3: 10 * level });
    const { body: device } = await jsonOf<{ reading: unknown }>(await s.fetch(`/api/v1/devices/${DEVICE}`, { cookie: admin }));
    expect(device.reading).toEqual(expected);
  });

  it('late readings are converted by the version valid at their time; one older than every version by the first', async () => {
    const put = await s.fetch(`/api/v1/devices/${DEVICE}/geometry`, { method: 'PUT', cookie: admin, json: { sensor: 'distance', mountHeightM: 6, zeroOffsetM: 0.1, shape: { kind: 'rectangular', areaM2: 10 } } });
    const { body: geometry } = await jsonOf<{ versions: { version: number; validFrom: string }[] }>(put);
    const [v2, v1] = geometry.versions.map((v) => Date.parse(v.validFrom)) as [number, number];
    expect(v2).toBeGreaterThan(v1);
    const between = Math.floor((v1 + v2) / 2);
    const beforeAll = v1 - 30_000; // after the first reading (a minute old), before any version
    expect((await post(0.75, between)).status).toBe(202);
    expect((await post(0.75, beforeAll)).status).toBe(202);
    const items = await readings();
    const at = (ts: number) => items.find((r) => r.ts === new Date(ts).toISOString());
    expect(at(between)).toMatchObject({ value: 5 - 0.75 + 0.1, raw: 0.75 });
    expect(at(beforeAll)).toMatchObject({ value: 5 - 0.75 + 0.1, raw: 0.75 });
    expect((await post(0.75, Date.now())).status).toBe(202);
    expect((await readings()).at(-1)).toMatchObject({ value: 6 - 0.75 + 0.1, raw: 0.75 });
  });

  it('after a restart the stored level and raw are read back as they were', async () => {
    await s.close();
    s = await startServer({}, { dataDir });
    admin = await s.login('admin');
    const items = await readings();
    expect(items.map((r) => [r.value, r.raw])).toEqual([
      [1.25, 1.25],
      [5 - 0.75 + 0.1, 0.75],
      [5 - 1.5 + 0.1, 1.5],
      [5 - 0.75 + 0.1, 0.75],
      [6 - 0.75 + 0.1, 0.75],
    ]);
  });

  it('the CSV export carries the volume and what was sent after the seed columns', async () => {
    const res = await s.fetch(`/api/v1/export.csv?deviceIds=${DEVICE}`, { cookie: admin });
    expect(res.status).toBe(200);
    const lines = Buffer.from(await res.arrayBuffer()).subarray(3).toString('utf8').trim().split('\r\n');
    expect(lines[0]).toBe('Dispositivo,Fecha y Hora,Valor,Unidad,Estado,Volumen (m³),Lectura bruta (m)');
    const level = 5 - 1.5 + 0.1;
    expect(lines.find((l) => l.endsWith(',1.5'))!.split(',').slice(2)).toEqual([String(level), 'm', 'Crítico', String(10 * level), '1.5']);
  });
});
