// docs/water.md "Simulator": a simulated tank whose inflow and outflow are known posts its
// readings, and the server's figures are held against the truth — the net flow and the time to
// overflow (or to empty) within ±5 %; a simulated distance sensor, through the simulator's own
// HTTP device, is stored as the tank's level with what it sent as `raw`.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceVolume, volumeAt, type Device, type GeometryInput, type TankShape } from '@agua/shared';
import { createRng, levelOfVolume, startFleet, TankModel, type Fleet, type TankFlows } from '@agua/simulator';
import { createDevice, jsonOf } from '../helpers/api';
import { levelMsg, postTelemetry, waitFor } from '../helpers/protocol';
import { startServer, tempDataDir, type TestServer } from '../helpers/server';

const MAX_LEVEL = 4;
const SHAPE: TankShape = { kind: 'vertical_cylinder', diameterM: 6 };
/** Flows that never change: inflow and outflow known to the m³/h. */
const steady = (inflowM3h: number, demandM3h: number): TankFlows => ({ inflowM3h, inflowWanderM3h: 0, storms: null, demandM3h, drainM3h: 0, pump: null });
const within5Pct = (actual: number | null | undefined, truth: number) => {
  expect(actual).not.toBeNull();
  expect(Math.abs(actual! - truth) / Math.abs(truth)).toBeLessThanOrEqual(0.05);
};

describe('a simulated tank against the server’s water figures', () => {
  const dataDir = tempDataDir();
  let s: TestServer;
  let admin: string;
  let fleet: Fleet | undefined;

  /** A clean-water level sensor of 4 m with this geometry; its device key. */
  const tankDevice = async (id: string, geometry: GeometryInput): Promise<string> => {
    const { apiKey } = await createDevice(s, admin, { id, name: `Tanque ${id}`, location: 'Prueba', type: 'level_sensor', waterType: 'clean', config: { maxLevel: MAX_LEVEL } });
    expect((await s.fetch(`/api/v1/devices/${id}/geometry`, { method: 'PUT', cookie: admin, json: geometry })).status).toBe(200);
    return apiKey;
  };
  const analyticsOf = async (id: string) => {
    const { status, body } = await jsonOf<Device[]>(await s.fetch('/api/v1/devices', { cookie: admin }));
    expect(status).toBe(200);
    return body.find((d) => d.id === id)!.analytics;
  };

  beforeAll(async () => {
    s = await startServer({}, { dataDir });
    admin = await s.login('admin');
  });
  afterAll(async () => {
    await fleet?.stop();
    await s?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it.each([
    ['filling: 150 m³/h in, 30 m³/h out', 'esp32_sim_llenado', 150, 30, 0.3],
    ['emptying: 40 m³/h in, 160 m³/h out', 'esp32_sim_vaciado', 40, 160, 0.7],
  ])('%s, a reading every 3 s for 5 minutes: net flow and forecast within 5 % of the truth', async (_name, id, inflowM3h, outflowM3h, initialFraction) => {
    const geometry = { shape: SHAPE, crestLevelM: 3.5 };
    const key = await tankDevice(id, geometry);
    const tank = new TankModel({ maxLevel: MAX_LEVEL, geometry, flows: steady(inflowM3h, outflowM3h), initialFraction, rng: createRng(28) });
    // The tank's last 5 minutes (the flow window), sensor ripple included, posted as its board would after an outage.
    const now = Date.now();
    const batch = Array.from({ length: 101 }, (_, i) => levelMsg(id, i === 0 ? tank.read() : tank.step(3000), { ts: now - (100 - i) * 3000 }));
    expect((await postTelemetry(s, batch, { key })).status).toBe(202);

    const truth = tank.now();
    expect(truth.netM3h).toBe(inflowM3h - outflowM3h);
    const a = await analyticsOf(id);
    expect(a).not.toBeNull();
    within5Pct(a!.netFlowM3h, truth.netM3h);
    within5Pct(a!.volumeM3, truth.volumeM3);
    const vref = referenceVolume({ shape: SHAPE, crestLevelM: 3.5 }, MAX_LEVEL)!;
    if (truth.netM3h > 0) {
      within5Pct(a!.timeToOverflowS, ((vref - truth.volumeM3) * 3600) / truth.netM3h);
      expect(a!.timeToEmptyS).toBeNull();
    } else {
      within5Pct(a!.timeToEmptyS, (truth.volumeM3 * 3600) / -truth.netM3h);
      expect(a!.timeToOverflowS).toBeNull();
    }
  });

  it('the simulator playing a distance sensor: each reading stored as the tank’s level, what it sent as raw; the net flow is the truth', async () => {
    const id = 'esp32_sim_distancia';
    const geometry: GeometryInput = { sensor: 'distance', mountHeightM: 4.6, zeroOffsetM: 0.05, shape: SHAPE, flowWindowS: 30 };
    const key = await tankDevice(id, geometry);
    const flows = steady(900, 300);
    const seed = 77;
    // The same tank and seed as the simulator's device: its starting level is the truth's.
    const twin = new TankModel({ maxLevel: MAX_LEVEL, geometry, flows, rng: createRng(seed) });
    const v0 = twin.now().volumeM3;
    fleet = startFleet({ url: s.url, transport: 'http', longPoll: false, devices: [{ id, type: 'level_sensor', key, maxLevel: MAX_LEVEL, geometry, flows, seed, intervalMs: 250 }] });

    // Half the 30 s flow window of readings, and a little more.
    const readings = (await waitFor(async () => {
      const { body } = await jsonOf<{ items: { ts: string; value: number; raw: number; status: string }[] }>(await s.fetch(`/api/v1/devices/${id}/readings?limit=1000`, { cookie: admin }));
      const items = body.items;
      return items.length > 1 && Date.parse(items.at(-1)!.ts) - Date.parse(items[0]!.ts) >= 17_000 ? items : null;
    }, 30_000, 500))!;
    const a = await analyticsOf(id);
    await fleet.stop();
    fleet = undefined;

    const t0 = Date.parse(readings[0]!.ts);
    for (const r of readings) {
      // What the server stored is mountHeight − distance + offset …
      expect(r.value).toBeCloseTo(4.6 - r.raw + 0.05, 9);
      // … the tank's level at that moment: 600 m³/h net into 28.3 m², to the sensor's ripple (8 mm) and centimetre.
      const level = levelOfVolume(SHAPE, MAX_LEVEL, v0 + ((600 * (Date.parse(r.ts) - t0)) / 3_600_000));
      expect(Math.abs(r.value - level)).toBeLessThan(0.04);
    }
    expect(readings.at(-1)!.value - readings[0]!.value).toBeGreaterThan(0.05);
    within5Pct(a!.netFlowM3h, 600);
    within5Pct(a!.volumeM3, volumeAt(SHAPE, readings.at(-1)!.value).volumeM3);
    const vref = referenceVolume({ shape: SHAPE, crestLevelM: null }, MAX_LEVEL)!;
    const trueVolume = v0 + (600 * (Date.parse(a!.at) - t0)) / 3_600_000;
    within5Pct(a!.timeToOverflowS, ((vref - trueVolume) * 3600) / 600);
  });
});
