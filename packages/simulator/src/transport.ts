import type { DeviceCommand } from '@agua/shared';
import type { DeviceIO, SimLogger } from './device-core';

/** Counters a fleet shows in its status line; transports of one fleet share one object. */
export interface SimStats {
  /** Readings the server took (HTTP 202 or MQTT PUBACK), duplicates included. */
  sent: number;
  /** Readings the server reported as duplicates (HTTP only; MQTT does not tell). */
  duplicates: number;
  /** Readings given up: refused with a 4xx, or pushed out of a full buffer. */
  dropped: number;
  /** Failed requests, refusals, connection errors. */
  errors: number;
  commands: number;
  acks: number;
}

export function emptyStats(): SimStats {
  return { sent: 0, duplicates: 0, dropped: 0, errors: 0, commands: 0, acks: 0 };
}

/**
 * One device's link to the server. A transport is the device's DeviceIO (send readings, ack,
 * reconnect) plus a lifecycle; commands it receives go to `onCommand` given at construction.
 */
export interface Transport extends DeviceIO {
  start(): Promise<void>;
  /** Close every socket and timer; pending readings are abandoned, as at power-off. */
  stop(): Promise<void>;
  /** Readings waiting to be sent (offline buffer). */
  readonly buffered: number;
}

export interface TransportOptions {
  deviceId: string;
  key: string;
  onCommand: (command: DeviceCommand) => void;
  logger: SimLogger;
  stats: SimStats;
  /** Readings kept while the server is unreachable; the oldest go first when full. */
  bufferCap?: number;
}

export const DEFAULT_BUFFER_CAP = 500;

/**
 * Logs a failure once, until it changes or the link recovers: a fleet of a thousand devices facing a
 * stopped server would otherwise print a thousand lines every few seconds.
 */
export class ErrorLatch {
  private last: string | undefined;
  constructor(private readonly logger: SimLogger) {}

  fail(message: string): void {
    if (message !== this.last) this.logger.warn(message);
    this.last = message;
  }

  ok(message: string): void {
    if (this.last !== undefined) this.logger.info(message);
    this.last = undefined;
  }
}

/** Exponential backoff with ±20 % jitter, so a fleet does not retry in lockstep. */
export function backoffMs(failures: number, baseMs = 1000, maxMs = 30_000): number {
  const raw = Math.min(maxMs, baseMs * 2 ** Math.max(0, failures - 1));
  return Math.round(raw * (0.8 + Math.random() * 0.4));
}

/** A delay that resolves early (without error) when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
