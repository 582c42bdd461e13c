// docs/water.md "Simulator": a simulated tank with known flows, speaking the real protocol over
// HTTP to a real server, gets the net flow and time to overflow it really has (±5 %); one that
// plays an ultrasonic distance sensor is stored as the level, its distance kept as `raw`.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet, type Fleet } from '@agua/simulator';
import type { Device } from '@agua/shared';
import { createDevice, jsonOf } from '../helpers/api';
import { waitFor } from '../helpers/protocol';
import { startServer, tempDataDir, type TestServer } from '../helpers/server';

const TANK = { kind: 'rectangular', areaM2: 10 } as const; // 50 m³ at maxLevel 5 m
const FLOWS = { inflowM3h: 400, outflowM3h: 40 }; // +360 m³/h: 1 cm a second, well above the 2-decimal readings' step

describe('a simulated tank against the server', () => {
  const dataDir = tempDataDir();
  let s: TestServer;
  let admin: string;
  let fleet: Fleet | undefined;

  async function sensor(id: string, geometry: Record<string, unknown>): Promise<string> {
    const { apiKey } = await createDevice(s, admin, { id, name: `Sim ${id}`, location: 'Pruebas', type: 'level_sensor', waterType: 'clean', config: { maxLevel: 5 } });
    const res = await s.fetch(`/api/v1/devices/${id}/geometry`, { method: 'PUT', cookie: admin, json: { shape: TANK, flowWindowS: 30, ...geometry } });
    expect(res.status).toBe(200);
    await res.body?.cancel();
    return apiKey;
  }
  const deviceOf = async (id: string) => (await jsonOf<Device>(await s.fetch(`/api/v1/devices/${id}`, { cookie: admin }))).body;

  beforeAll(async () => {
    s = await startServer({ DEVICE_RATE_LIMIT: '0', LOG_LEVEL: 'silent' }, { dataDir });
    admin = await s.login('admin');
  });
  afterAll(async () => {
    await fleet?.stop();
    await s?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('the server finds the flow the simulator runs, and the time to overflow that follows from it', async () => {
    const levelKey = await sensor('sim_caudal', {});
    const distanceKey = await sensor('sim_distancia', { sensor: 'distance', mountHeightM: 6 });
    fleet = startFleet({
      url: s.url,
      transport: 'http',
      longPoll: false,
      intervalMs: 1000,
      seed: 3,
      devices: [
        { id: 'sim_caudal', type: 'level_sensor', key: levelKey, maxLevel: 5, tank: TANK, constantFlows: FLOWS },
        { id: 'sim_distancia', type: 'level_sensor', key: distanceKey, maxLevel: 5, tank: TANK, constantFlows: FLOWS, sensor: { kind: 'distance', mountHeightM: 6 } },
      ],
    });
    // The flow needs readings over half its 30 s window.
    const figures = await waitFor(async () => {
      const a = (await deviceOf('sim_caudal')).analytics;
      return a && a.netFlowM3h !== null ? a : null;
    }, 25_000, 500);
    const net = FLOWS.inflowM3h - FLOWS.outflowM3h;
    expect(Math.abs(figures!.netFlowM3h! - net)).toBeLessThanOrEqual(0.05 * net);
    const expectedEta = ((50 - figures!.volumeM3) * 3600) / net;
    expect(Math.abs(figures!.timeToOverflowS! - expectedEta)).toBeLessThanOrEqual(0.05 * expectedEta);

    // The distance sensor: stored as the level, the distance it sent kept beside it.
    const distance = await deviceOf('sim_distancia');
    const reading = distance.reading as { value: number; raw?: number };
    expect(reading.raw).toBeDefined();
    expect(reading.value + reading.raw!).toBeCloseTo(6, 6);
    expect(reading.value).toBeGreaterThan(0);
    expect(reading.value).toBeLessThanOrEqual(5);
    const distanceFlow = await waitFor(async () => (await deviceOf('sim_distancia')).analytics?.netFlowM3h ?? null, 5_000, 250);
    expect(Math.abs(distanceFlow! - net)).toBeLessThanOrEqual(0.05 * net);
  }, 40_000);
});
