import { READING_INTERVAL_MS, volumeAt, type CommandAck, type DeviceCommand, type TankShape, type TelemetryMessage } from '@agua/shared';
import { CommandGuard, Sequencer, silentLogger, type DeviceIO, type SimLogger, type VirtualDevice } from './device-core';
import { createRng, gaussian, randomSeed, type Rng } from './rng';

/*
 * The water model works in fractions of the full volume (V at maxLevel) so that a 10 m overflow
 * channel and a 5 m tank behave alike; with a tank shape those fractions are cubic metres, the
 * flows are known in m³/h (`flows()`) and the level is the one that holds the volume (docs/water.md
 * "Simulator"). Without a shape a fraction of the volume is a fraction of maxLevel. Rates are "per reference step" of 3 s and scaled by the real step, so changing the
 * reading interval changes how often we look, not how fast the water moves.
 *
 * - Inflow wanders slowly around a base (mean-reverting random walk), and now and then a "storm"
 *   adds a surge for a minute or two: that is what pushes the level over 60 % and 85 %.
 * - Outflow is a gravity drain (∝ √level, Torricelli) plus a pump with hysteresis: it starts above
 *   PUMP_ON and stops below PUMP_OFF, which brings the level back down after a surge.
 * - The sensor adds a little ripple noise; everything is clamped to [0, maxLevel] (a full channel
 *   overflows, it does not rise past its rim).
 */
const REF_STEP_MS = 3000;
const BASE_INFLOW = 0.0085; // fraction of maxLevel per step
const INFLOW_REVERSION = 0.04; // how fast inflow returns to its base
const INFLOW_NOISE = 0.0012;
const DRAIN = 0.011; // drain = DRAIN * sqrt(level): equilibrium ≈ (BASE_INFLOW / DRAIN)² ≈ 0.6
const PUMP_RATE = 0.02;
const PUMP_ON = 0.78;
const PUMP_OFF = 0.4;
const STORM_CHANCE = 0.012; // per step, ≈ one storm every ~4 minutes at 3 s
const STORM_MIN = 0.012;
const STORM_MAX = 0.035;
const STORM_STEPS_MIN = 15;
const STORM_STEPS_MAX = 60;
const RIPPLE = 0.002; // sensor noise, fraction of maxLevel

export interface LevelWalkOptions {
  maxLevel: number;
  rng?: Rng;
  /** Starting volume as a fraction of the full one; random in [0.3, 0.55] when omitted. */
  initialFraction?: number;
  /** The tank: its volume is what moves; the level follows from it. */
  tank?: TankShape;
  /**
   * Constant flows instead of the wandering model (no storms, no pump, no sensor ripple): a test
   * or a bench that needs a known rate. Needs `tank`.
   */
  constantFlows?: { inflowM3h: number; outflowM3h: number };
}

/** What goes in and out of the tank now, m³/h. */
export interface TankFlows {
  inflowM3h: number;
  outflowM3h: number;
  netM3h: number;
}

const STEPS_PER_HOUR = 3_600_000 / REF_STEP_MS;

/** The tank/channel whose level the sensor measures. Pure: time only moves through step(). */
export class LevelWalk {
  readonly maxLevel: number;
  private readonly rng: Rng;
  private readonly tank: TankShape | null;
  /** V(maxLevel), m³ (1 without a tank: fractions stand for themselves). */
  private readonly fullM3: number;
  private readonly constant: { inflowM3h: number; outflowM3h: number } | null;
  private fill: number; // true volume, fraction of the full one
  private inflow = BASE_INFLOW;
  private stormInflow = 0;
  private stormSteps = 0;
  private pumpOn = false;
  /** The last step's flows, fractions of the full volume per reference step. */
  private lastIn = BASE_INFLOW;
  private lastOut = 0;

  constructor(options: LevelWalkOptions) {
    if (!(options.maxLevel > 0)) throw new Error(`maxLevel must be > 0, got ${options.maxLevel}`);
    if (options.constantFlows && !options.tank) throw new Error('constantFlows needs a tank');
    this.maxLevel = options.maxLevel;
    this.rng = options.rng ?? createRng(randomSeed());
    this.tank = options.tank ?? null;
    this.fullM3 = this.tank ? volumeAt(this.tank, this.maxLevel).volumeM3 : 1;
    if (!(this.fullM3 > 0)) throw new Error('the tank holds nothing at maxLevel');
    this.constant = options.constantFlows ?? null;
    this.fill = clamp01(options.initialFraction ?? 0.3 + this.rng() * 0.25);
  }

  /** The tank's flows over the last step, m³/h; null without a tank (nothing is in m³ then). */
  flows(): TankFlows | null {
    if (!this.tank) return null;
    const inflowM3h = this.lastIn * this.fullM3 * STEPS_PER_HOUR;
    const outflowM3h = this.lastOut * this.fullM3 * STEPS_PER_HOUR;
    return { inflowM3h, outflowM3h, netM3h: inflowM3h - outflowM3h };
  }

  /** The true volume now, m³; null without a tank. */
  volumeM3(): number | null {
    return this.tank ? this.fill * this.fullM3 : null;
  }

  /** The true level now, m: the one whose volume is the tank's (bisection: every shape's volume grows with the level). */
  levelM(): number {
    if (!this.tank) return this.fill * this.maxLevel;
    const target = this.fill * this.fullM3;
    let lo = 0;
    let hi = this.maxLevel;
    for (let i = 0; i < 50; i++) {
      const mid = (lo + hi) / 2;
      if (volumeAt(this.tank, mid).volumeM3 < target) lo = mid;
      else hi = mid;
    }
    return (lo + hi) / 2;
  }

  /** Advance the water by dtMs and return the sensor's reading in metres (2 decimals). */
  step(dtMs: number = REF_STEP_MS): number {
    const k = Math.max(0, dtMs) / REF_STEP_MS;
    if (k > 0) this.advance(k);
    return this.read();
  }

  /** A reading of the current level without moving time (sensor ripple included, unless the flows are constant). */
  read(): number {
    const ripple = this.constant ? 0 : gaussian(this.rng) * RIPPLE * this.maxLevel;
    return round2(Math.min(this.maxLevel, Math.max(0, this.levelM() + ripple)));
  }

  private advance(k: number): void {
    if (this.constant) {
      this.lastIn = this.constant.inflowM3h / STEPS_PER_HOUR / this.fullM3;
      this.lastOut = this.constant.outflowM3h / STEPS_PER_HOUR / this.fullM3;
      this.fill = clamp01(this.fill + (this.lastIn - this.lastOut) * k);
      return;
    }
    const rng = this.rng;
    this.inflow += INFLOW_REVERSION * (BASE_INFLOW - this.inflow) * k + INFLOW_NOISE * Math.sqrt(k) * gaussian(rng);
    this.inflow = Math.max(0, this.inflow);

    if (this.stormSteps > 0) {
      this.stormSteps -= k;
    } else if (rng() < 1 - Math.pow(1 - STORM_CHANCE, k)) {
      this.stormInflow = STORM_MIN + rng() * (STORM_MAX - STORM_MIN);
      this.stormSteps = STORM_STEPS_MIN + rng() * (STORM_STEPS_MAX - STORM_STEPS_MIN);
    }
    const storm = this.stormSteps > 0 ? this.stormInflow : 0;

    const level = this.levelM() / this.maxLevel;
    if (level > PUMP_ON) this.pumpOn = true;
    else if (level < PUMP_OFF) this.pumpOn = false;

    // Torricelli: the drain follows the head, i.e. the level.
    this.lastOut = DRAIN * Math.sqrt(level) + (this.pumpOn ? PUMP_RATE : 0);
    this.lastIn = this.inflow + storm;
    this.fill = clamp01(this.fill + (this.lastIn - this.lastOut) * k);
  }
}

export interface LevelSensorOptions {
  id: string;
  maxLevel: number;
  io: DeviceIO;
  intervalMs?: number;
  rng?: Rng;
  /** How long the board is "off" during a `restart` command. */
  restartDelayMs?: number;
  logger?: SimLogger;
  /** Delay before the first reading, to spread a large fleet over the interval. */
  startDelayMs?: number;
  /** The tank the sensor sits on (flows in m³/h); see LevelWalkOptions. */
  tank?: TankShape;
  constantFlows?: LevelWalkOptions['constantFlows'];
  /**
   * A distance sensor (ultrasonic, mounted above the water) sends the distance down to the water:
   * mountHeightM − level + zeroOffsetM, the inverse of the server's conversion (docs/water.md).
   */
  sensor?: DistanceSensor;
}

export interface DistanceSensor {
  kind: 'distance';
  mountHeightM: number;
  zeroOffsetM?: number;
}

/** What the sensor sends for a level: the level, or a distance sensor's distance down to it. */
export function sensorValue(levelM: number, sensor: DistanceSensor | undefined): number {
  return sensor ? round2(sensor.mountHeightM + (sensor.zeroOffsetM ?? 0) - levelM) : levelM;
}

/** A virtual ESP32 with a level sensor: a reading every interval, `read` and `restart` commands. */
export class LevelSensor implements VirtualDevice {
  readonly id: string;
  private readonly io: DeviceIO;
  private readonly walk: LevelWalk;
  private readonly sensor: DistanceSensor | undefined;
  private readonly intervalMs: number;
  private readonly restartDelayMs: number;
  private readonly startDelayMs: number;
  private readonly logger: SimLogger;
  private readonly seq: Sequencer;
  private readonly guard = new CommandGuard();
  private timer: NodeJS.Timeout | undefined;
  private lastStepAt = 0;
  private truthLoggedAt = 0;
  private running = false;
  private restarting = false;

  constructor(options: LevelSensorOptions) {
    this.id = options.id;
    this.io = options.io;
    const rng = options.rng ?? createRng(randomSeed());
    this.walk = new LevelWalk({ maxLevel: options.maxLevel, rng, ...(options.tank ? { tank: options.tank } : {}), ...(options.constantFlows ? { constantFlows: options.constantFlows } : {}) });
    this.sensor = options.sensor;
    this.intervalMs = options.intervalMs ?? READING_INTERVAL_MS;
    this.restartDelayMs = options.restartDelayMs ?? 1000;
    this.startDelayMs = options.startDelayMs ?? 0;
    this.logger = options.logger ?? silentLogger;
    // boot stays truly random even with a seeded rng: a replayed boot would make the server
    // discard a rerun's readings as duplicates of the last run's.
    this.seq = new Sequencer();
  }

  /** The tank's flows now, m³/h (null without a tank): the truth the server's figures can be checked against. */
  flows(): TankFlows | null {
    return this.walk.flows();
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.lastStepAt = Date.now();
    this.schedule(this.startDelayMs);
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  handleCommand(command: DeviceCommand): void {
    const verdict = this.guard.check(command);
    if (verdict.kind === 'expired') {
      this.logger.debug?.(`${this.id}: ignoring expired command ${command.id}`);
      return;
    }
    if (verdict.kind === 'duplicate') {
      if (verdict.ack) void this.io.ack(command.id, verdict.ack);
      return;
    }
    void this.execute(command);
  }

  private async execute(command: DeviceCommand): Promise<void> {
    const reply = async (ack: CommandAck) => {
      this.guard.remember(command.id, ack);
      await this.io.ack(command.id, ack);
    };
    switch (command.command) {
      case 'read':
        await reply({ success: true });
        if (this.running && !this.restarting) {
          this.emitReading(); // at once, and the next one a full interval later
          this.schedule(this.intervalMs);
        }
        return;
      case 'restart':
        await reply({ success: true });
        await this.restart();
        return;
      default:
        await reply({ success: false, message: `Comando no soportado: ${command.command}` });
    }
  }

  /** What a reboot looks like from outside: silence, a new connection, new boot, seq from 0. */
  private async restart(): Promise<void> {
    if (!this.running || this.restarting) return;
    this.restarting = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    try {
      await new Promise((resolve) => setTimeout(resolve, this.restartDelayMs));
      if (!this.running) return;
      this.seq.reboot();
      this.logger.info(`${this.id}: restarted (boot ${this.seq.boot})`);
      await this.io.reconnect();
      if (!this.running) return;
      this.emitReading();
      this.schedule(this.intervalMs);
    } finally {
      this.restarting = false;
    }
  }

  /** Once a minute (debug): the tank's true volume and flows, to hold the server's figures against. */
  private logTruth(nowMs: number): void {
    const flows = this.walk.flows();
    if (!flows || !this.logger.debug || nowMs - this.truthLoggedAt < 60_000) return;
    this.truthLoggedAt = nowMs;
    const f = (x: number) => x.toFixed(1);
    this.logger.debug(`${this.id}: ${f(this.walk.volumeM3()!)} m³, in ${f(flows.inflowM3h)} m³/h, out ${f(flows.outflowM3h)} m³/h, net ${f(flows.netM3h)} m³/h`);
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.emitReading();
      this.schedule(this.intervalMs);
    }, delayMs);
  }

  private emitReading(): void {
    const now = Date.now();
    const value = sensorValue(this.walk.step(now - this.lastStepAt), this.sensor);
    this.lastStepAt = now;
    this.logTruth(now);
    const message: TelemetryMessage = {
      deviceId: this.id,
      type: 'level_sensor',
      data: { value, unit: 'm' },
      ts: now,
      ...this.seq.next(),
    };
    this.io.send(message);
  }
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
