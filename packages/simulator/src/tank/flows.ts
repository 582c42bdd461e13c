/**
 * What fills and empties a simulated tank, in m³/h (docs/water.md "Simulator"). The inflow is a
 * base that wanders slowly (a mean-reverting random walk) plus a storm now and then; the outflow
 * is a constant draw, a gravity drain (∝ √level, Torricelli) and a pump with hysteresis. The
 * weir of the tank's geometry, when it has one, spills above the crest on top of these.
 */
export interface TankFlows {
  /** The inflow's mean, m³/h. */
  inflowM3h: number;
  /** How far the inflow wanders from its mean (standard deviation), m³/h; 0 keeps it constant. */
  inflowWanderM3h: number;
  /** Storm surges added to the inflow; null: none. */
  storms: StormSettings | null;
  /** A constant draw (a town's demand on a clean tank), m³/h. */
  demandM3h: number;
  /** The gravity drain's flow at maxLevel, m³/h; √(level / maxLevel) of it below. */
  drainM3h: number;
  /** A pump that starts above `onFraction` of maxLevel and stops below `offFraction`; null: none. */
  pump: PumpSettings | null;
}

export interface StormSettings {
  /** Mean time between the starts of two storms, s. */
  meanEveryS: number;
  /** A storm's surge is drawn uniformly in [minM3h, maxM3h] and lasts [minS, maxS]. */
  minM3h: number;
  maxM3h: number;
  minS: number;
  maxS: number;
}

export interface PumpSettings {
  rateM3h: number;
  onFraction: number;
  offFraction: number;
}

/** How long the inflow's wander takes to come back to its mean (its time constant), s. */
export const INFLOW_REVERSION_S = 600;

/**
 * The flows of a tank described only by its size, as fractions of the volume it holds at
 * maxLevel per hour. The proportions are the demo's character: the drain alone balances the base
 * inflow near 60 % ((1.25 / 1.6)² ≈ 0.61), a storm beats the pump so the level climbs past 85 %
 * now and then, and the pump brings it back under 40 %, on a scale of tens of minutes — slow
 * beside the 5-minute flow window, so the net flow a screen shows follows the true one.
 */
export function defaultFlows(fullVolumeM3: number): TankFlows {
  const v = fullVolumeM3;
  return {
    inflowM3h: 1.25 * v,
    inflowWanderM3h: 0.15 * v,
    storms: { meanEveryS: 900, minM3h: 1.75 * v, maxM3h: 5 * v, minS: 120, maxS: 600 },
    demandM3h: 0,
    drainM3h: 1.6 * v,
    pump: { rateM3h: 2.5 * v, onFraction: 0.78, offFraction: 0.4 },
  };
}

/** The first thing wrong with a set of flows, or null. */
export function flowsProblem(f: TankFlows): string | null {
  const nonNegative = (v: number) => Number.isFinite(v) && v >= 0;
  for (const key of ['inflowM3h', 'inflowWanderM3h', 'demandM3h', 'drainM3h'] as const) {
    if (!nonNegative(f[key])) return `${key} must be a number ≥ 0`;
  }
  if (f.storms) {
    const s = f.storms;
    if (!(s.meanEveryS > 0) || !nonNegative(s.minM3h) || !(s.maxM3h >= s.minM3h) || !nonNegative(s.minS) || !(s.maxS >= s.minS)) return 'storms: every > 0, 0 ≤ min ≤ max';
  }
  if (f.pump) {
    const p = f.pump;
    if (!nonNegative(p.rateM3h) || !(p.offFraction >= 0 && p.offFraction < p.onFraction && p.onFraction <= 1)) return 'pump: rate ≥ 0, 0 ≤ offFraction < onFraction ≤ 1';
  }
  return null;
}
