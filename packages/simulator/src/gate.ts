import { READING_INTERVAL_MS, type CommandAck, type DeviceCommand, type GateState, type TelemetryMessage } from '@agua/shared';
import { CommandGuard, Sequencer, silentLogger, type DeviceIO, type SimLogger, type VirtualDevice } from './device-core';
import type { Rng } from './rng';

/**
 * How a simulated gate misbehaves, to exercise the unhappy paths end to end:
 * - `normal`: does what it is told;
 * - `fail`: refuses every command, ack `success: false`, message `Motor bloqueado`; it does not move;
 * - `silent`: ignores commands altogether (no ack, no movement) but keeps reporting its state,
 *   so the server sees an online device whose commands time out;
 * - `stuck`: acks and reports `abriendo`/`cerrando`, never arrives, and reports `falla` once its
 *   travel timeout runs out.
 */
export const GATE_BEHAVIOURS = ['normal', 'fail', 'silent', 'stuck'] as const;
export type GateBehaviour = (typeof GATE_BEHAVIOURS)[number];

export const GATE_FAIL_MESSAGE = 'Motor bloqueado';
export const DEFAULT_TRAVEL_MS = 5000;

export interface GateOptions {
  id: string;
  io: DeviceIO;
  behaviour?: GateBehaviour;
  /** Time of a full stroke (closed → open). Real gates take minutes; 5 s makes a watchable demo. */
  travelMs?: number;
  /** `stuck` only: how long a gate tries before it reports `falla`; default 2 × travelMs. */
  travelTimeoutMs?: number;
  intervalMs?: number;
  initialState?: 'abierta' | 'cerrada';
  logger?: SimLogger;
  startDelayMs?: number;
  /**
   * The demo's gate faults now and then by itself (a motor overload: it reports `falla`) and
   * recovers after `lastsMs`, so that a first-time user sees a gate-fault alarm come and go.
   * Intervals are `meanEveryMs` × (0.5 … 1.5), drawn from `rng`.
   */
  spontaneousFaults?: { meanEveryMs: number; lastsMs: number; rng: Rng };
}

interface Motion {
  direction: 1 | -1; // 1 opening, -1 closing
  startedAt: number;
  fromPosition: number;
  timer: NodeJS.Timeout;
}

/**
 * A virtual motorized gate. Its physical truth is `position` in [0, 1] (0 closed, 1 fully open);
 * the reported state is derived from it:
 * - moving → `abriendo` / `cerrando`; a failed gate → `falla`;
 * - at rest → `cerrada` only when fully closed, `abierta` otherwise. A gate stopped half way by
 *   `detener` therefore reports `abierta`: water flows through any opening, and claiming `cerrada`
 *   for a partly open gate would be the dangerous lie. The extra field `data.openPct` (ignored by
 *   the server, allowed by docs/protocol.md) tells how far open it is.
 * A later `abrir`/`cerrar` travels only the remaining distance.
 */
export class Gate implements VirtualDevice {
  readonly id: string;
  readonly behaviour: GateBehaviour;
  private readonly io: DeviceIO;
  private readonly travelMs: number;
  private readonly travelTimeoutMs: number;
  private readonly intervalMs: number;
  private readonly startDelayMs: number;
  private readonly logger: SimLogger;
  private readonly seq = new Sequencer();
  private readonly guard = new CommandGuard();
  private position: number;
  private motion: Motion | undefined;
  private fault = false;
  private reportTimer: NodeJS.Timeout | undefined;
  private faultTimer: NodeJS.Timeout | undefined;
  private running = false;
  private readonly spontaneousFaults: GateOptions['spontaneousFaults'];

  constructor(options: GateOptions) {
    this.id = options.id;
    this.io = options.io;
    this.behaviour = options.behaviour ?? 'normal';
    this.travelMs = options.travelMs ?? DEFAULT_TRAVEL_MS;
    this.travelTimeoutMs = options.travelTimeoutMs ?? 2 * this.travelMs;
    this.intervalMs = options.intervalMs ?? READING_INTERVAL_MS;
    this.startDelayMs = options.startDelayMs ?? 0;
    this.logger = options.logger ?? silentLogger;
    this.position = options.initialState === 'abierta' ? 1 : 0;
    this.spontaneousFaults = options.spontaneousFaults;
  }

  /** The state the gate reports now. */
  get state(): GateState {
    if (this.fault) return 'falla';
    if (this.motion) return this.motion.direction === 1 ? 'abriendo' : 'cerrando';
    return this.position <= 0 ? 'cerrada' : 'abierta';
  }

  /** How far open, 0..100 (whole percent). */
  get openPct(): number {
    return Math.round(this.currentPosition() * 100);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.scheduleReport(this.startDelayMs);
    this.scheduleSpontaneousFault();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.faultTimer);
    this.faultTimer = undefined;
    clearTimeout(this.reportTimer);
    this.reportTimer = undefined;
    if (this.motion) {
      this.position = this.currentPosition();
      clearTimeout(this.motion.timer);
      this.motion = undefined;
    }
  }

  handleCommand(command: DeviceCommand): void {
    if (this.behaviour === 'silent') return;
    const verdict = this.guard.check(command);
    if (verdict.kind === 'expired') {
      this.logger.debug?.(`${this.id}: ignoring expired command ${command.id}`);
      return;
    }
    if (verdict.kind === 'duplicate') {
      // Executed once already; the repeat means our ack was probably lost, so say it again.
      if (verdict.ack) void this.io.ack(command.id, verdict.ack);
      return;
    }
    const ack = this.execute(command.command);
    this.guard.remember(command.id, ack);
    void this.io.ack(command.id, ack);
    // The ack carries the state; telemetry makes it the device's current reading too.
    if (this.running) this.report();
  }

  private execute(command: string): CommandAck {
    if (command !== 'abrir' && command !== 'cerrar' && command !== 'detener') {
      return { success: false, message: `Comando no soportado: ${command}`, state: this.state };
    }
    if (this.behaviour === 'fail') {
      return { success: false, message: GATE_FAIL_MESSAGE, state: this.state };
    }
    if (command === 'detener') {
      this.halt();
      return { success: true, state: this.state };
    }
    const direction = command === 'abrir' ? 1 : -1;
    this.move(direction);
    return { success: true, state: this.state };
  }

  private move(direction: 1 | -1): void {
    if (this.motion?.direction === direction) return; // already on its way there
    this.halt();
    this.fault = false; // a new attempt clears an earlier fault
    const target = direction === 1 ? 1 : 0;
    if (this.position === target) return; // already there: the ack reports the final state
    const now = Date.now();
    const stuck = this.behaviour === 'stuck';
    const remainingMs = Math.abs(target - this.position) * this.travelMs;
    const timer = setTimeout(() => this.arrive(), stuck ? this.travelTimeoutMs : remainingMs);
    this.motion = { direction, startedAt: now, fromPosition: this.position, timer };
  }

  private arrive(): void {
    const motion = this.motion;
    if (!motion) return;
    this.motion = undefined;
    if (this.behaviour === 'stuck') {
      this.fault = true;
      this.logger.info(`${this.id}: travel timeout, reporting falla`);
    } else {
      this.position = motion.direction === 1 ? 1 : 0;
    }
    if (this.running) this.report();
  }

  /** The next fault of its own (demo), then its recovery, then the next one. */
  private scheduleSpontaneousFault(): void {
    const faults = this.spontaneousFaults;
    if (!faults || !this.running) return;
    const inMs = faults.meanEveryMs * (0.5 + faults.rng());
    this.faultTimer = setTimeout(() => {
      this.halt();
      this.fault = true;
      this.logger.info(`${this.id}: motor overload, reporting falla`);
      this.report();
      this.faultTimer = setTimeout(() => {
        this.fault = false;
        this.logger.info(`${this.id}: recovered`);
        this.report();
        this.scheduleSpontaneousFault();
      }, faults.lastsMs);
    }, inMs);
  }

  /** Stop where it is. */
  private halt(): void {
    if (!this.motion) return;
    this.position = this.currentPosition();
    clearTimeout(this.motion.timer);
    this.motion = undefined;
  }

  private currentPosition(): number {
    const m = this.motion;
    if (!m || this.behaviour === 'stuck') return this.position; // a stuck gate does not move
    const travelled = (Date.now() - m.startedAt) / this.travelMs;
    return Math.min(1, Math.max(0, m.fromPosition + m.direction * travelled));
  }

  private scheduleReport(delayMs: number): void {
    clearTimeout(this.reportTimer);
    if (!this.running) return;
    this.reportTimer = setTimeout(() => this.report(), delayMs);
  }

  /** Report now and restart the interval: a change is reported at once, not twice in a row. */
  private report(): void {
    this.scheduleReport(this.intervalMs);
    const message: TelemetryMessage = {
      deviceId: this.id,
      type: 'motorized_gate',
      data: { value: this.state, openPct: this.openPct },
      ts: Date.now(),
      ...this.seq.next(),
    };
    this.io.send(message);
  }
}
