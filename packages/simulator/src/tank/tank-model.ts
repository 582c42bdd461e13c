import { resolveGeometry, volumeAt, weirFlowM3s, type Geometry, type GeometryInput, type TankShape } from '@agua/shared';
import { createRng, gaussian, randomSeed, type Rng } from '../rng';
import { defaultFlows, flowsProblem, INFLOW_REVERSION_S, type TankFlows } from './flows';
import { levelOfVolume } from './level-of-volume';
import { sensorValue } from './sensor-value';

/**
 * A tank without a shape in its geometry is simulated as a column of 1 m²: its volume in m³ is its
 * level in m, and the server, knowing no shape, shows no volume anyway.
 */
export const UNDESCRIBED_SHAPE: Readonly<TankShape> = { kind: 'rectangular', areaM2: 1 };
/** Sensor noise (standard deviation) as a share of maxLevel: 2 cm on a 10 m well. */
export const DEFAULT_RIPPLE_FRACTION = 0.002;
/** Longest step the water is moved by at once: the drain and the weir follow the level. */
const MAX_SUBSTEP_S = 1;

/** The true flows at an instant, m³/h: what the server's net flow should find (docs/water.md). */
export interface TankTruth {
  levelM: number;
  volumeM3: number;
  inflowM3h: number;
  outflowM3h: number;
  netM3h: number;
}

export interface TankModelOptions {
  maxLevel: number;
  /** The tank and its sensor, by the server's geometry fields (docs/water.md); default: level sensor, no shape. */
  geometry?: GeometryInput;
  /** Default: `defaultFlows` of the volume at maxLevel. */
  flows?: TankFlows;
  rng?: Rng;
  /** Starting level as a fraction of maxLevel; random in [0.3, 0.55] when omitted. */
  initialFraction?: number;
  /** Sensor noise (standard deviation), m; default 0.2 % of maxLevel. */
  rippleM?: number;
}

/**
 * A simulated tank in m³: it holds a volume, moved by inflow − outflow over time, and its level is
 * the level at which its shape holds that volume (the shared volume functions, inverted). Pure:
 * time only moves through step(), and a seeded rng repeats a run exactly.
 */
export class TankModel {
  readonly maxLevel: number;
  readonly geometry: Geometry;
  readonly flows: TankFlows;
  private readonly shape: TankShape;
  private readonly rng: Rng;
  private readonly rippleM: number;
  private readonly minVolume: number;
  private readonly maxVolume: number;
  private volume: number;
  private level: number;
  private inflowWander = 0;
  private storm = { rateM3h: 0, leftS: 0 };
  private pumpOn = false;
  private truth: TankTruth;

  constructor(options: TankModelOptions) {
    if (!(options.maxLevel > 0)) throw new Error(`maxLevel must be > 0, got ${options.maxLevel}`);
    this.maxLevel = options.maxLevel;
    const resolved = resolveGeometry(options.geometry ?? {}, options.maxLevel);
    if ('problem' in resolved) throw new Error(`geometry: ${resolved.problem.field} ${resolved.problem.reason}`);
    this.geometry = resolved.geometry;
    const { sensor, mountHeightM, zeroOffsetM } = this.geometry;
    // Mounted lower, the water could reach the sensor, which would then read 0 and lie.
    if (sensor === 'distance' && (mountHeightM ?? 0) + zeroOffsetM < this.maxLevel) throw new Error(`geometry: a distance sensor must be mounted at or above maxLevel (${this.maxLevel} m)`);
    this.shape = this.geometry.shape ?? UNDESCRIBED_SHAPE;
    this.minVolume = volumeAt(this.shape, 0).volumeM3;
    this.maxVolume = volumeAt(this.shape, this.maxLevel).volumeM3;
    this.flows = options.flows ?? defaultFlows(this.maxVolume);
    const problem = flowsProblem(this.flows);
    if (problem) throw new Error(`flows: ${problem}`);
    this.rng = options.rng ?? createRng(randomSeed());
    this.rippleM = options.rippleM ?? DEFAULT_RIPPLE_FRACTION * this.maxLevel;
    const fraction = Math.min(1, Math.max(0, options.initialFraction ?? 0.3 + this.rng() * 0.25));
    this.level = fraction * this.maxLevel;
    this.volume = volumeAt(this.shape, this.level).volumeM3;
    this.truth = this.measureTruth(this.flows.inflowM3h, this.outflowAt(this.level));
  }

  /** The true level, volume and flows now (the flows of the last step). */
  now(): TankTruth {
    return { ...this.truth };
  }

  /** Moves the water by dtMs and returns what the sensor sends then. */
  step(dtMs: number): number {
    let leftS = Math.max(0, dtMs) / 1000;
    while (leftS > 0) {
      const dtS = Math.min(MAX_SUBSTEP_S, leftS);
      this.advance(dtS);
      leftS -= dtS;
    }
    return this.read();
  }

  /**
   * What the sensor sends for the current level, with its ripple: the level for a level sensor,
   * the distance down to the surface for a distance sensor (by its calibration, so that the server
   * stores the level). The measured level stays within [0, maxLevel]: a sensor in range.
   */
  read(): number {
    const measured = Math.min(this.maxLevel, Math.max(0, this.level + gaussian(this.rng) * this.rippleM));
    return sensorValue(this.geometry, measured);
  }

  private advance(dtS: number): void {
    const inflow = this.flows.inflowM3h + this.wanderInflow(dtS) + this.stormInflow(dtS);
    const pump = this.flows.pump;
    if (pump) {
      if (this.level > pump.onFraction * this.maxLevel) this.pumpOn = true;
      else if (this.level < pump.offFraction * this.maxLevel) this.pumpOn = false;
    }
    let outflow = this.outflowAt(this.level);
    // A full tank spills what it cannot hold; an empty one gives only what comes in.
    const next = this.volume + ((inflow - outflow) * dtS) / 3600;
    if (next > this.maxVolume) outflow += ((next - this.maxVolume) * 3600) / dtS;
    else if (next < this.minVolume) outflow -= ((this.minVolume - next) * 3600) / dtS;
    this.volume = Math.min(this.maxVolume, Math.max(this.minVolume, next));
    this.level = levelOfVolume(this.shape, this.maxLevel, this.volume);
    this.truth = this.measureTruth(inflow, outflow);
  }

  /** Draw, drain, pump and weir at this level, m³/h. */
  private outflowAt(levelM: number): number {
    const f = this.flows;
    const drain = f.drainM3h * Math.sqrt(Math.max(0, levelM) / this.maxLevel);
    const pump = this.pumpOn && f.pump ? f.pump.rateM3h : 0;
    const { weir, crestLevelM } = this.geometry;
    const spill = weir && crestLevelM !== null ? weirFlowM3s(weir, levelM - crestLevelM) * 3600 : 0;
    return f.demandM3h + drain + pump + spill;
  }

  /** Ornstein–Uhlenbeck: drifts back to 0 over INFLOW_REVERSION_S with a spread of inflowWanderM3h. */
  private wanderInflow(dtS: number): number {
    const sigma = this.flows.inflowWanderM3h;
    if (sigma > 0) {
      const theta = 1 / INFLOW_REVERSION_S;
      this.inflowWander += -theta * this.inflowWander * dtS + sigma * Math.sqrt(2 * theta * dtS) * gaussian(this.rng);
    }
    // Never a negative inflow: the wander cannot take more than the base.
    return Math.max(-this.flows.inflowM3h, this.inflowWander);
  }

  /** A storm starts at random (a Poisson process), adds its surge, and ends after its duration. */
  private stormInflow(dtS: number): number {
    const s = this.flows.storms;
    if (!s) return 0;
    if (this.storm.leftS > 0) {
      this.storm.leftS -= dtS;
    } else if (this.rng() < 1 - Math.exp(-dtS / s.meanEveryS)) {
      this.storm = { rateM3h: s.minM3h + this.rng() * (s.maxM3h - s.minM3h), leftS: s.minS + this.rng() * (s.maxS - s.minS) };
    }
    return this.storm.leftS > 0 ? this.storm.rateM3h : 0;
  }

  private measureTruth(inflowM3h: number, outflowM3h: number): TankTruth {
    return { levelM: this.level, volumeM3: this.volume, inflowM3h, outflowM3h, netM3h: inflowM3h - outflowM3h };
  }
}
