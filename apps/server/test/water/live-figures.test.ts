// docs/water.md "Volume, flow, time to overflow": every level sensor with a shape carries its
// water figures — in GET /devices, on the live socket — computed the same way everywhere; stale
// data keeps its volume but gets no flow and no forecast; a new geometry shows at once.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device, WaterAnalytics } from '@agua/shared';
import { jsonOf } from '../helpers/api';
import { GATE_1, LEVEL_2, levelMsg, openLive, postTelemetry, waitFor } from '../helpers/protocol';
import { startServer, tempDataDir, type TestServer } from '../helpers/server';

const AREA = Math.PI * 8 * 8; // the demo clean tank: a vertical cylinder 16 m across, maxLevel 5 m

describe('live water figures', () => {
  const dataDir = tempDataDir();
  let s: TestServer;
  let viewer: string;
  const devices = async () => Object.fromEntries((await jsonOf<Device[]>(await s.fetch('/api/v1/devices', { cookie: viewer }))).body.map((d) => [d.id, d]));

  beforeAll(async () => {
    s = await startServer({ DEVICE_OFFLINE_AFTER_S: '3' }, { dataDir });
    viewer = await s.login('viewer');
  });
  afterAll(async () => {
    await s?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a filling tank: volume, fill, net flow and time to overflow in GET /devices; a gate has none', async () => {
    const now = Date.now();
    // 1 mm every 10 s over 150 s: half the 300 s window, so a flow is given.
    const body = Array.from({ length: 16 }, (_, i) => levelMsg(LEVEL_2, 2 + i * 0.001, { ts: new Date(now - (15 - i) * 10_000).toISOString() }));
    expect((await postTelemetry(s, body)).status).toBe(202);
    const { [LEVEL_2]: tank, [GATE_1]: gate } = await devices();
    const a = tank!.analytics!;
    expect(a.volumeM3).toBeCloseTo(AREA * 2.015, 6);
    expect(a.fillPct).toBeCloseTo((100 * 2.015) / 5, 6);
    expect(a.netFlowM3h).toBeCloseTo(AREA * 0.001 * 360, 6);
    expect(a.timeToOverflowS).toBeCloseTo((AREA * (5 - 2.015) * 3600) / (AREA * 0.36), 3);
    expect(a).toMatchObject({ timeToEmptyS: null, quality: 'good', at: new Date(now).toISOString() });
    expect(gate!.analytics).toBeNull();
  });

  it('stale data keeps its volume and loses its forecast', async () => {
    const stale = await waitFor(async () => {
      const a = (await devices())[LEVEL_2]!.analytics;
      return a && a.netFlowM3h === null ? a : null;
    }, 6000);
    expect(stale).toMatchObject({ timeToOverflowS: null, timeToEmptyS: null });
    expect(stale!.volumeM3).toBeCloseTo(AREA * 2.015, 6);
  });

  it('a new geometry reaches the sockets at once as device.updated; without a shape there are no figures', async () => {
    const admin = await s.login('admin');
    const opened = await openLive(s, { cookie: viewer, origin: s.url });
    const live = opened.live!;
    await live.next((f) => f.type === 'hello');
    expect((await s.fetch(`/api/v1/devices/${LEVEL_2}/geometry`, { method: 'PUT', cookie: admin, json: { shape: { kind: 'rectangular', areaM2: 10 } } })).status).toBe(200);
    const updated = await live.next((f) => f.type === 'device.updated' && f.data.id === LEVEL_2 && (f.data.analytics as WaterAnalytics | null)?.volumeM3 !== undefined && Math.abs(f.data.analytics!.volumeM3 - 20.15) < 1e-6, 3000);
    expect(updated.data.analytics!.fillPct).toBeCloseTo((100 * 2.015) / 5, 6);
    expect((await s.fetch(`/api/v1/devices/${LEVEL_2}/geometry`, { method: 'PUT', cookie: admin, json: { shape: null } })).status).toBe(200);
    await live.next((f) => f.type === 'device.updated' && f.data.id === LEVEL_2 && f.data.analytics === null, 3000);
    expect((await devices())[LEVEL_2]!.analytics).toBeNull();
    live.close();
  });

  it('after a restart the last hour is read back: the figures are there before any new reading', async () => {
    const admin = await s.login('admin');
    expect((await s.fetch(`/api/v1/devices/${LEVEL_2}/geometry`, { method: 'PUT', cookie: admin, json: { shape: { kind: 'rectangular', areaM2: 10 } } })).status).toBe(200);
    await s.close();
    s = await startServer({ DEVICE_OFFLINE_AFTER_S: '3' }, { dataDir });
    viewer = await s.login('viewer');
    expect((await devices())[LEVEL_2]!.analytics).toMatchObject({ volumeM3: expect.closeTo(20.15, 6), netFlowM3h: null });
  });
});
