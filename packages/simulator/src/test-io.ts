import type { CommandAck, DeviceCommand, TelemetryMessage } from '@agua/shared';
import type { DeviceIO } from './device-core';

/** A DeviceIO that records what a device says, for unit tests of devices without a network. */
export class RecordingIO implements DeviceIO {
  readonly sent: TelemetryMessage[] = [];
  readonly acks: Array<{ id: string } & CommandAck> = [];
  reconnects = 0;

  send(message: TelemetryMessage): void {
    this.sent.push(message);
  }

  async ack(commandId: string, ack: CommandAck): Promise<void> {
    this.acks.push({ id: commandId, ...ack });
  }

  async reconnect(): Promise<void> {
    this.reconnects++;
  }

  /** Values of the messages sent so far. */
  values(): Array<TelemetryMessage['data']['value']> {
    return this.sent.map((m) => m.data.value);
  }

  last(): TelemetryMessage | undefined {
    return this.sent.at(-1);
  }
}

let counter = 0;
/** A command that expires `ttlMs` from now (Date.now, so fake timers apply). */
export function command(name: string, options: { id?: string; ttlMs?: number } = {}): DeviceCommand {
  const now = Date.now();
  return {
    id: options.id ?? `cmd_test_${++counter}`,
    command: name,
    issuedAt: new Date(now).toISOString(),
    expiresAt: new Date(now + (options.ttlMs ?? 10_000)).toISOString(),
  };
}
