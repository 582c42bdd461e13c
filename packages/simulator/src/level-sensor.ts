import { READING_INTERVAL_MS, type CommandAck, type DeviceCommand, type TelemetryMessage } from '@agua/shared';
import { CommandGuard, Sequencer, silentLogger, type DeviceIO, type SimLogger, type VirtualDevice } from './device-core';
import type { TankModel } from './tank/tank-model';

export interface LevelSensorOptions {
  id: string;
  /** The tank whose water the sensor measures (level or distance, by its geometry). */
  tank: TankModel;
  io: DeviceIO;
  intervalMs?: number;
  /** How long the board is "off" during a `restart` command. */
  restartDelayMs?: number;
  logger?: SimLogger;
  /** Delay before the first reading, to spread a large fleet over the interval. */
  startDelayMs?: number;
}

/** A virtual ESP32 with a level sensor: a reading every interval, `read` and `restart` commands. */
export class LevelSensor implements VirtualDevice {
  readonly id: string;
  private readonly io: DeviceIO;
  private readonly tank: TankModel;
  private readonly intervalMs: number;
  private readonly restartDelayMs: number;
  private readonly startDelayMs: number;
  private readonly logger: SimLogger;
  private readonly seq: Sequencer;
  private readonly guard = new CommandGuard();
  private timer: NodeJS.Timeout | undefined;
  private lastStepAt = 0;
  private running = false;
  private restarting = false;

  constructor(options: LevelSensorOptions) {
    this.id = options.id;
    this.io = options.io;
    this.tank = options.tank;
    this.intervalMs = options.intervalMs ?? READING_INTERVAL_MS;
    this.restartDelayMs = options.restartDelayMs ?? 1000;
    this.startDelayMs = options.startDelayMs ?? 0;
    this.logger = options.logger ?? silentLogger;
    // boot stays truly random even with a seeded rng: a replayed boot would make the server
    // discard a rerun's readings as duplicates of the last run's.
    this.seq = new Sequencer();
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
    const value = this.tank.step(now - this.lastStepAt);
    this.lastStepAt = now;
    if (this.logger.debug) this.logger.debug(`${this.id}: sends ${value} · ${describeTruth(this.tank)}`);
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

/** The tank's truth in a log line: what the server's figures should show (docs/water.md "Simulator"). */
function describeTruth(tank: TankModel): string {
  const t = tank.now();
  const f = (x: number) => x.toFixed(1);
  return `level ${t.levelM.toFixed(3)} m · volume ${f(t.volumeM3)} m³ · in ${f(t.inflowM3h)} m³/h · out ${f(t.outflowM3h)} m³/h · net ${t.netM3h >= 0 ? '+' : ''}${f(t.netM3h)} m³/h`;
}
