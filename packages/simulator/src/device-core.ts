import type { CommandAck, DeviceCommand, TelemetryMessage } from '@agua/shared';
import { newBoot, type Rng } from './rng';

/** What the simulator logs through; a pino logger or `console` fits. */
export interface SimLogger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
  debug?(msg: string): void;
}

/** The way a virtual device talks to the outside world; a transport provides it. */
export interface DeviceIO {
  /** Queue a message for the server; never throws (the transport buffers and retries). */
  send(message: TelemetryMessage): void;
  /** Acknowledge a command; resolves once delivered or given up (never rejects). */
  ack(commandId: string, ack: CommandAck): Promise<void>;
  /** Drop the connection and connect again, as a rebooting board does. */
  reconnect(): Promise<void>;
}

/** A running virtual device. */
export interface VirtualDevice {
  readonly id: string;
  start(): void;
  stop(): void;
  handleCommand(command: DeviceCommand): void;
}

/** Shape check of a command as received; anything else is dropped, as firmware would. */
export function parseCommand(value: unknown): DeviceCommand | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.id !== 'string' || v.id === '' || typeof v.command !== 'string') return null;
  if (typeof v.expiresAt !== 'string') return null;
  return {
    id: v.id,
    command: v.command,
    issuedAt: typeof v.issuedAt === 'string' ? v.issuedAt : '',
    expiresAt: v.expiresAt,
  };
}

export type CommandVerdict = { kind: 'new' } | { kind: 'duplicate'; ack?: CommandAck } | { kind: 'expired' };

/**
 * "A device executes each command id at most once, and ignores a command whose expiresAt has
 * passed" (docs/protocol.md). The server re-sends an unacknowledged command with the same id every 5 s,
 * so a repeat most likely means our ack was lost: the guard remembers the ack so it can be re-sent
 * without executing the command again.
 */
export class CommandGuard {
  private readonly seen = new Map<string, CommandAck | undefined>();

  constructor(
    private readonly capacity = 256,
    private readonly now: () => number = Date.now,
  ) {}

  check(command: DeviceCommand): CommandVerdict {
    if (this.seen.has(command.id)) return { kind: 'duplicate', ack: this.seen.get(command.id) };
    const expires = Date.parse(command.expiresAt);
    // An unreadable expiry is treated as expired: a gate must not move on a command of unknown age.
    if (!Number.isFinite(expires) || expires <= this.now()) return { kind: 'expired' };
    this.remember(command.id, undefined);
    return { kind: 'new' };
  }

  /** Record the ack sent for a command, for re-sending on a repeat. */
  remember(id: string, ack: CommandAck | undefined): void {
    this.seen.delete(id);
    this.seen.set(id, ack);
    // Map keeps insertion order, so the first key is the oldest.
    while (this.seen.size > this.capacity) {
      const oldest = this.seen.keys().next().value;
      if (oldest === undefined) break;
      this.seen.delete(oldest);
    }
  }
}

/** seq/boot of outgoing messages (docs/protocol.md "Message"): seq counts up from 0 per boot. */
export class Sequencer {
  boot: string;
  private seq = 0;

  constructor(private readonly rng?: Rng) {
    this.boot = newBoot(rng);
  }

  next(): { seq: number; boot: string } {
    return { seq: this.seq++, boot: this.boot };
  }

  /** A restart: new boot, counter back to 0. */
  reboot(): void {
    this.boot = newBoot(this.rng);
    this.seq = 0;
  }
}

/** A logger that discards everything. */
export const silentLogger: SimLogger = { info() {}, warn() {}, error() {} };
