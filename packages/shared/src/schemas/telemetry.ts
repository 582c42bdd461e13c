import type { GateState } from '../devices/devices';

/** A device message as firmware sends it (docs/protocol.md); the server validates it stage by stage. */
export interface TelemetryMessage {
  deviceId: string;
  type: 'level_sensor' | 'motorized_gate';
  data: { value: number | GateState; unit?: 'm'; [extra: string]: unknown };
  ts?: string | number;
  seq?: number;
  boot?: string;
}

/** A command as handed to a device (docs/protocol.md "Commands"). */
export interface DeviceCommand {
  id: string;
  command: string;
  issuedAt: string;
  expiresAt: string;
}

/** A device's acknowledgement of a command. */
export interface CommandAck {
  success: boolean;
  message?: string;
  state?: GateState;
}

export const MAX_BATCH_MESSAGES = 500;
export const MAX_BODY_BYTES = 256 * 1024;
export const FUTURE_TOLERANCE_MS = 5 * 60 * 1000;
/** Epoch values below this look like seconds, not milliseconds. */
export const MIN_EPOCH_MS = 1e11;
/**
 * No reading is older than this (2000-01-01T00:00:00Z): an earlier `ts` is a device clock that
 * was never set, and would export as a meaningless date.
 */
export const MIN_READING_TS_MS = Date.UTC(2000, 0, 1);
export const DUPLICATE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** MQTT topics of one device. */
export const topics = {
  telemetry: (id: string) => `agua/v1/${id}/telemetry`,
  commands: (id: string) => `agua/v1/${id}/commands`,
  commandAck: (id: string) => `agua/v1/${id}/commands/ack`,
  errors: (id: string) => `agua/v1/${id}/errors`,
  status: (id: string) => `agua/v1/${id}/status`,
} as const;
export const TOPIC_PREFIX = 'agua/v1/';
