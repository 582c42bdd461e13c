import { levelFromSensor, levelStatus, volumeAt, weirFlowM3s, type GeometryInput, type TankShape } from '@agua/shared';
import { describe, expect, it } from 'vitest';
import { createRng } from '../rng';
import { DEMO_TANKS } from './demo-tanks';
import type { TankFlows } from './flows';
import { TankModel } from './tank-model';

/** Flows that never change: a known net flow. */
const steady = (inflowM3h: number, demandM3h: number): TankFlows => ({ inflowM3h, inflowWanderM3h: 0, storms: null, demandM3h, drainM3h: 0, pump: null });

const SHAPES: [string, TankShape][] = [
  ['rectangular', { kind: 'rectangular', areaM2: 24 }],
  ['vertical cylinder', { kind: 'vertical_cylinder', diameterM: 16 }],
  ['horizontal cylinder', { kind: 'horizontal_cylinder', diameterM: 3, lengthM: 12 }],
  ['strapping table', { kind: 'table', points: [{ levelM: 0, volumeM3: 0 }, { levelM: 1, volumeM3: 10 }, { levelM: 2, volumeM3: 40 }, { levelM: 4, volumeM3: 100 }] }],
];

describe('TankModel: the water in m³', () => {
  it.each(SHAPES)('a known net inflow for a known time adds its volume, and the level is where the shape holds it (%s)', (_name, shape) => {
    const maxLevel = 4;
    const start = volumeAt(shape, 1).volumeM3;
    const tank = new TankModel({ maxLevel, geometry: { shape }, flows: steady(90, 30), initialFraction: 0.25, rippleM: 0 });
    expect(tank.now().volumeM3).toBeCloseTo(start, 9);
    // 60 m³/h net for 6 minutes, in readings every 3 s: 6 m³.
    for (let i = 0; i < 120; i++) tank.step(3000);
    const t = tank.now();
    expect(t).toMatchObject({ inflowM3h: 90, outflowM3h: 30, netM3h: 60 });
    expect(t.volumeM3).toBeCloseTo(start + 6, 9);
    expect(volumeAt(shape, t.levelM).volumeM3).toBeCloseTo(start + 6, 6);
    expect(tank.read()).toBe(Math.round(t.levelM * 100) / 100);
  });

  it('a rectangular well of 24 m² rises 0.5 m for 12 m³ and falls back for as much out', () => {
    const tank = new TankModel({ maxLevel: 10, geometry: { shape: { kind: 'rectangular', areaM2: 24 } }, flows: steady(144, 0), initialFraction: 0.5, rippleM: 0 });
    tank.step(5 * 60_000);
    expect(tank.now().levelM).toBeCloseTo(5.5, 6);
    const draining = new TankModel({ maxLevel: 10, geometry: { shape: { kind: 'rectangular', areaM2: 24 } }, flows: steady(0, 144), initialFraction: 0.5, rippleM: 0 });
    draining.step(5 * 60_000);
    expect(draining.now()).toMatchObject({ netM3h: -144 });
    expect(draining.now().levelM).toBeCloseTo(4.5, 6);
  });

  it('each step moves the volume by exactly its net flow (the truth a test compares the server with)', () => {
    const tank = new TankModel({ ...DEMO_TANKS.esp32_nivel_01!, rng: createRng(5) });
    let worst = 0;
    for (let i = 0; i < 5000; i++) {
      const before = tank.now().volumeM3;
      tank.step(1000);
      const t = tank.now();
      expect(t.netM3h).toBeCloseTo(t.inflowM3h - t.outflowM3h, 9);
      worst = Math.max(worst, Math.abs(t.volumeM3 - before - t.netM3h / 3600));
    }
    expect(worst).toBeLessThan(1e-9);
  });

  it('the drain follows √level and the pump has hysteresis: on above its start level, off below its stop level', () => {
    const flows: TankFlows = { ...steady(0, 0), drainM3h: 100, pump: { rateM3h: 50, onFraction: 0.8, offFraction: 0.3 } };
    const tank = new TankModel({ maxLevel: 10, geometry: { shape: { kind: 'rectangular', areaM2: 10 } }, flows, initialFraction: 0.9, rippleM: 0 });
    tank.step(1000);
    let t = tank.now();
    expect(t.outflowM3h).toBeCloseTo(100 * Math.sqrt(0.9) + 50, 1);
    // Still pumping at 50 %: it stops only under 30 %.
    while (tank.now().levelM > 5) tank.step(1000);
    t = tank.now();
    expect(t.outflowM3h).toBeCloseTo(100 * Math.sqrt(t.levelM / 10) + 50, 1);
    while (tank.now().levelM > 2.9) tank.step(1000);
    tank.step(1000);
    t = tank.now();
    expect(t.outflowM3h).toBeCloseTo(100 * Math.sqrt(t.levelM / 10), 1);
  });

  it('over a weir the level settles where the shared weir formula carries the inflow away', () => {
    const weir = { widthM: 1.5, coefficient: 0.62 };
    const inflowM3h = 600;
    const tank = new TankModel({ maxLevel: 10, geometry: { shape: { kind: 'rectangular', areaM2: 24 }, crestLevelM: 9, weir }, flows: steady(inflowM3h, 0), initialFraction: 0.88, rippleM: 0 });
    for (let i = 0; i < 3600; i++) tank.step(1000);
    const t = tank.now();
    expect(t.levelM).toBeGreaterThan(9);
    expect(weirFlowM3s(weir, t.levelM - 9) * 3600).toBeCloseTo(inflowM3h, 0);
    expect(Math.abs(t.netM3h)).toBeLessThan(1);
  });

  it('a full tank spills what it cannot hold and an empty one gives only what comes in', () => {
    const full = new TankModel({ maxLevel: 5, geometry: { shape: { kind: 'rectangular', areaM2: 10 } }, flows: steady(100, 20), initialFraction: 0.99, rippleM: 0 });
    full.step(10 * 60_000);
    expect(full.now()).toMatchObject({ levelM: expect.closeTo(5, 9), volumeM3: 50, inflowM3h: 100 });
    expect(full.now().netM3h).toBeCloseTo(0, 9);
    const empty = new TankModel({ maxLevel: 5, geometry: { shape: { kind: 'rectangular', areaM2: 10 } }, flows: steady(5, 20), initialFraction: 0.01, rippleM: 0 });
    empty.step(10 * 60_000);
    expect(empty.now()).toMatchObject({ levelM: expect.closeTo(0, 9), volumeM3: 0 });
    expect(empty.now().outflowM3h).toBeCloseTo(5, 9);
    expect(empty.read()).toBe(0);
  });

  it.each([
    ['a non-positive maxLevel', { maxLevel: 0 }, /maxLevel/],
    ['a geometry the server would refuse', { maxLevel: 5, geometry: { shape: { kind: 'rectangular', areaM2: -1 } } as GeometryInput }, /shape\.areaM2/],
    ['a distance sensor without its height', { maxLevel: 5, geometry: { sensor: 'distance' } as GeometryInput }, /mountHeightM/],
    ['a distance sensor the water could reach', { maxLevel: 5, geometry: { sensor: 'distance', mountHeightM: 4 } as GeometryInput }, /mounted at or above maxLevel/],
    ['a negative inflow', { maxLevel: 5, flows: steady(-1, 0) }, /inflowM3h/],
    ['a pump that stops above where it starts', { maxLevel: 5, flows: { ...steady(1, 0), pump: { rateM3h: 1, onFraction: 0.3, offFraction: 0.6 } } }, /pump/],
  ])('refuses %s', (_name, options, message) => {
    expect(() => new TankModel(options)).toThrow(message);
  });
});

describe('TankModel: the distance sensor', () => {
  it('sends the distance down to the water, which the server turns back into the level', () => {
    const geometry = { sensor: 'distance', mountHeightM: 6, zeroOffsetM: 0.15, shape: { kind: 'vertical_cylinder', diameterM: 16 } } as const;
    const tank = new TankModel({ maxLevel: 5, geometry, flows: steady(0, 0), initialFraction: 0.5, rippleM: 0 });
    expect(tank.read()).toBeCloseTo(6 + 0.15 - 2.5, 9);
    expect(levelFromSensor(tank.geometry, tank.read())).toBeCloseTo(2.5, 9);
  });

  it('with ripple and moving water, every distance sent is a level within the tank, to the centimetre', () => {
    const geometry = { sensor: 'distance', mountHeightM: 10.5, zeroOffsetM: 0, shape: { kind: 'rectangular', areaM2: 24 } } as const;
    const tank = new TankModel({ maxLevel: 10, geometry, rng: createRng(11) });
    for (let i = 0; i < 2000; i++) {
      const d = tank.step(3000);
      expect(Math.round(d * 100) / 100).toBe(d);
      const level = levelFromSensor(tank.geometry, d);
      expect(level).toBeGreaterThanOrEqual(-0.005);
      expect(level).toBeLessThanOrEqual(10.005);
      expect(Math.abs(level - tank.now().levelM)).toBeLessThan(0.2);
    }
  });
});

describe('TankModel: the demo character', () => {
  const cases = [
    ...Object.entries(DEMO_TANKS).map(([id, t]) => [id, t.maxLevel, t.geometry, t.flows, 20261124] as const),
    ...[[10, 1], [5, 2], [10, 3], [0.5, 4]].map(([maxLevel, seed]) => [`${maxLevel} m without a shape`, maxLevel!, undefined, undefined, seed!] as const),
  ];

  it.each(cases)('%s stays within its range and crosses 60 % and 85 % and comes back, many times a day', (_name, maxLevel, geometry, flows, seed) => {
    const tank = new TankModel({ maxLevel, geometry, flows, rng: createRng(seed) });
    const entered = { warning: 0, critical: 0, normalAfterCritical: 0 };
    let previous = 'normal';
    let sawCritical = false;
    let min = Infinity;
    let max = -Infinity;
    let notTwoDecimals = 0;
    let faults = 0;
    // 24 hours of readings at 3 s.
    for (let i = 0; i < 28_800; i++) {
      const v = tank.step(3000);
      min = Math.min(min, v);
      max = Math.max(max, v);
      if (Math.round(v * 100) / 100 !== v) notTwoDecimals++;
      const status = levelStatus(v, { maxLevel });
      if (status === 'fault') faults++;
      if (status !== previous) {
        if (status === 'warning' && previous === 'normal') entered.warning++;
        if (status === 'critical') {
          entered.critical++;
          sawCritical = true;
        }
        if (status === 'normal' && sawCritical) entered.normalAfterCritical++;
      }
      previous = status;
    }
    expect(min).toBeGreaterThanOrEqual(0);
    expect(max).toBeLessThanOrEqual(maxLevel);
    expect(notTwoDecimals).toBe(0);
    expect(faults).toBe(0);
    // Several episodes a day: a demo shows alarms coming and going, not a level stuck in one band.
    expect(entered.warning).toBeGreaterThan(20);
    expect(entered.critical).toBeGreaterThan(10);
    expect(entered.normalAfterCritical).toBeGreaterThan(10);
  });

  it('the demo wet well spills over its crest now and then, never far above it', () => {
    const { maxLevel, geometry, flows } = DEMO_TANKS.esp32_nivel_01!;
    const tank = new TankModel({ maxLevel, geometry, flows, rng: createRng(20261124) });
    let aboveCrest = 0;
    let peak = 0;
    for (let i = 0; i < 28_800; i++) {
      tank.step(3000);
      const level = tank.now().levelM;
      if (level >= 9) aboveCrest++;
      peak = Math.max(peak, level);
    }
    expect(aboveCrest).toBeGreaterThan(60);
    expect(peak).toBeLessThan(9.5);
  });

  it('is repeatable with the same seed', () => {
    const run = () => {
      const tank = new TankModel({ ...DEMO_TANKS.esp32_nivel_01!, rng: createRng(42) });
      return Array.from({ length: 500 }, () => [tank.step(3000), tank.now().netM3h]);
    };
    expect(run()).toEqual(run());
  });

  it('moves by water physics, not by reading count: short steps stay bounded and smooth', () => {
    const tank = new TankModel({ maxLevel: 10, rng: createRng(9), initialFraction: 0.5 });
    let last = tank.read();
    let min = Infinity;
    let max = -Infinity;
    let biggestJump = 0;
    for (let i = 0; i < 50_000; i++) {
      const v = tank.step(250);
      min = Math.min(min, v);
      max = Math.max(max, v);
      biggestJump = Math.max(biggestJump, Math.abs(v - last));
      last = v;
    }
    expect(min).toBeGreaterThanOrEqual(0);
    expect(max).toBeLessThanOrEqual(10);
    // 250 ms of water plus sensor ripple: never a jump of more than 2 % of the range.
    expect(biggestJump).toBeLessThan(0.2);
  });
});
