// docs/water.md "Volume, flow, time to overflow": GET /devices/{id}/analytics — level, volume and
// flows per minute, hour or local day from the stored readings, by the geometry valid at each.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError, jsonOf } from '../helpers/api';
import { GATE_1, LEVEL_1, levelMsg, postTelemetry } from '../helpers/protocol';
import { startServer, tempDataDir, type TestServer } from '../helpers/server';

interface Series {
  from: string;
  to: string;
  step: string;
  items: Array<{ ts: string; level: number; volumeM3: number | null; netFlowM3h: number | null; inflowM3: number | null; outflowM3: number | null }>;
}

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('water analytics per period', () => {
  const dataDir = tempDataDir();
  let s: TestServer;
  let viewer: string;
  // Three whole hours ending at the last full hour: the demo wet well (24 m², crest 9 m).
  const base = Math.floor(Date.now() / HOUR) * HOUR - 3 * HOUR;
  const at = (m: number) => new Date(base + m * MIN).toISOString();
  const analytics = async (query: Record<string, string>, deviceId = LEVEL_1) => s.fetch(`/api/v1/devices/${deviceId}/analytics?${new URLSearchParams(query)}`, { cookie: viewer });

  beforeAll(async () => {
    s = await startServer({}, { dataDir });
    viewer = await s.login('viewer');
    const readings: Array<[number, number]> = [[0, 2], [30, 3], [59, 4], [125, 4], [140, 55], [150, 3]];
    const body = readings.map(([m, v], i) => levelMsg(LEVEL_1, v, { ts: at(m), seq: i + 1, boot: 'analytics' }));
    expect((await postTelemetry(s, body)).status).toBe(202);
  });
  afterAll(async () => {
    await s?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('per hour: means, volumes by the tank, water in and out, net flow; empty hours and fault readings left out', async () => {
    const { status, body } = await jsonOf<Series>(await analytics({ from: at(0), to: at(180), step: '1h' }));
    expect(status).toBe(200);
    expect(body).toMatchObject({ from: at(0), to: at(180), step: '1h' });
    expect(body.items.map((i) => i.ts)).toEqual([at(0), at(120)]);
    expect(body.items[0]).toMatchObject({ level: 3, volumeM3: 72, inflowM3: 48, outflowM3: 0 });
    expect(body.items[0]!.netFlowM3h).toBeCloseTo(48 / (59 / 60), 9);
    expect(body.items[1]).toMatchObject({ level: 3.5, volumeM3: 84, inflowM3: 0, outflowM3: 24 });
  });

  it('per minute, aligned to UTC; per local day, from local midnight', async () => {
    const minutes = await jsonOf<Series>(await analytics({ from: at(0), to: at(180), step: '1m' }));
    expect(minutes.body.items.map((i) => i.ts)).toEqual([0, 30, 59, 125, 150].map(at));
    const days = await jsonOf<Series>(await analytics({ from: new Date(base - 24 * HOUR).toISOString(), to: new Date(base + 4 * HOUR).toISOString(), step: '1d' }));
    expect(days.status).toBe(200);
    // The readings' last local day (they may straddle a midnight when the test runs near one).
    const midnight = new Date(base + 150 * MIN);
    midnight.setHours(0, 0, 0, 0);
    expect(days.body.items.at(-1)!.ts).toBe(midnight.toISOString());
    const thatDay = [[0, 2], [30, 3], [59, 4], [125, 4], [150, 3]].filter(([m]) => base + m! * MIN >= midnight.getTime()).map(([, v]) => v!);
    expect(days.body.items.at(-1)!.level).toBeCloseTo(thatDay.reduce((a, b) => a + b, 0) / thatDay.length, 9);
  });

  it('defaults to the last 24 h by hour', async () => {
    const { status, body } = await jsonOf<Series>(await analytics({}));
    expect(status).toBe(200);
    expect(body.step).toBe('1h');
    expect(Date.parse(body.to) - Date.parse(body.from)).toBe(24 * HOUR);
    expect(body.items.length).toBeGreaterThanOrEqual(2);
  });

  it('more than 10,000 buckets is 400 TOO_MANY_BUCKETS; a backwards range 400; a gate or unknown device 404', async () => {
    await expectApiError(await analytics({ from: at(-8 * 24 * 60), to: at(0), step: '1m' }), 400, 'TOO_MANY_BUCKETS');
    await expectApiError(await analytics({ from: '0001-01-01T00:00:00Z', to: '9999-01-01T00:00:00Z', step: '1d' }), 400, 'TOO_MANY_BUCKETS');
    await expectApiError(await analytics({ from: at(60), to: at(0) }), 400, 'RANGE_INVALID');
    await expectApiError(await analytics({ step: '1w' }), 400);
    await expectApiError(await analytics({}, GATE_1), 404, 'DEVICE_NOT_FOUND');
    await expectApiError(await analytics({}, 'esp32_no_existe'), 404, 'DEVICE_NOT_FOUND');
  });
});
