import { SENSOR_MAX_LEVEL_CLEAN_M, SENSOR_MAX_LEVEL_RESIDUAL_M, type GeometryInput } from '@agua/shared';
import type { TankFlows } from './flows';

/** A demo level sensor's tank: its size, its geometry as the server stores it, and what fills and empties it. */
export interface DemoTank {
  maxLevel: number;
  geometry: GeometryInput;
  flows: TankFlows;
}

/**
 * The demo level sensors' tanks (docs/water.md "Simulator"): the one home of their dimensions —
 * the server's demo seed stores these geometries as version 1, and the simulator moves the water
 * in them. Both measure the level itself with no offset (they store what they send).
 *
 * esp32_nivel_01, a rectangular wet well of 24 m² (240 m³ at its 10 m), spills over a 1.5 m weir
 * at 9.0 m: sewage comes in at about 300 m³/h, storms add 420–1,200 m³/h for 2 to 10 minutes
 * about every 15 minutes; a gravity outlet drains 380 m³/h at 10 m (√ of the level below) and a
 * 600 m³/h pump runs from 7.8 m down to 4.0 m.
 *
 * esp32_nivel_02, a clean-water tank, a vertical cylinder 16 m across (1,005 m³ at its 5 m): the
 * plant feeds it about 1,250 m³/h with surges of 1,750–5,000 m³/h, the outlet drains 1,600 m³/h
 * at 5 m and a 2,500 m³/h transfer pump runs from 3.9 m down to 2.0 m.
 *
 * Fast for real tanks, on purpose: a demo shows its levels cross 60 % and 85 % (and the wet well
 * spill) within the hour someone watches, and slow beside the 5-minute net-flow window.
 */
export const DEMO_TANKS: Readonly<Record<string, Readonly<DemoTank>>> = {
  esp32_nivel_01: {
    maxLevel: SENSOR_MAX_LEVEL_RESIDUAL_M,
    geometry: { sensor: 'level', shape: { kind: 'rectangular', areaM2: 24 }, crestLevelM: 9, weir: { widthM: 1.5, coefficient: 0.62 } },
    flows: {
      inflowM3h: 300,
      inflowWanderM3h: 40,
      storms: { meanEveryS: 900, minM3h: 420, maxM3h: 1200, minS: 120, maxS: 600 },
      demandM3h: 0,
      drainM3h: 380,
      pump: { rateM3h: 600, onFraction: 0.78, offFraction: 0.4 },
    },
  },
  esp32_nivel_02: {
    maxLevel: SENSOR_MAX_LEVEL_CLEAN_M,
    geometry: { sensor: 'level', shape: { kind: 'vertical_cylinder', diameterM: 16 } },
    flows: {
      inflowM3h: 1250,
      inflowWanderM3h: 150,
      storms: { meanEveryS: 900, minM3h: 1750, maxM3h: 5000, minS: 120, maxS: 600 },
      demandM3h: 0,
      drainM3h: 1600,
      pump: { rateM3h: 2500, onFraction: 0.78, offFraction: 0.4 },
    },
  },
};
