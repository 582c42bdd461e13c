import {
  FUTURE_TOLERANCE_MS,
  GATE_STATES,
  MAX_BATCH_MESSAGES,
  MIN_EPOCH_MS,
  MIN_READING_TS_MS,
  type ErrorCode,
  type GateState,
} from '@agua/shared';
import { AppError } from '../../lib/errors';
import { parseRequestTime } from '../../lib/time';
import type { DeviceRecord } from '../devices/devices.repository';

/** A message that passed every check, ready to store. */
export interface ValidMessage {
  tsMs: number;
  valueNum: number | null;
  valueText: GateState | null;
  seq: number | null;
  boot: string;
}

const MAX_BOOT_LENGTH = 64;

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function refuse(status: number, code: ErrorCode, index: number, isBatch: boolean, field?: string): never {
  const details: Record<string, unknown> = {};
  if (isBatch) details.index = index;
  if (field) details.field = field;
  throw new AppError(status, code, Object.keys(details).length > 0 ? details : undefined);
}

/**
 * Runs the content checks of docs/protocol.md in their order — shape (400), identity (403), values
 * (422) — each over the whole batch before the next. Throws on the first bad message.
 */
export function validateTelemetry(body: unknown, device: DeviceRecord, nowMs: number): ValidMessage[] {
  const isBatch = Array.isArray(body);
  const messages: unknown[] = isBatch ? body : [body];
  if (isBatch && messages.length === 0) refuse(400, 'BATCH_EMPTY', 0, false);
  if (messages.length > MAX_BATCH_MESSAGES) refuse(400, 'BATCH_TOO_LARGE', MAX_BATCH_MESSAGES, false);

  messages.forEach((m, i) => checkShape(m, i, isBatch));
  (messages as Obj[]).forEach((m, i) => {
    if (m.deviceId !== device.id) refuse(403, 'DEVICE_ID_MISMATCH', i, isBatch, 'deviceId');
  });
  return (messages as Obj[]).map((m, i) => checkValues(m, i, isBatch, device, nowMs));
}

function checkShape(m: unknown, i: number, isBatch: boolean): void {
  if (!isObject(m)) refuse(400, 'MESSAGE_INVALID', i, isBatch);
  if (typeof m.deviceId !== 'string') refuse(400, 'MESSAGE_INVALID', i, isBatch, 'deviceId');
  if (typeof m.type !== 'string') refuse(400, 'MESSAGE_INVALID', i, isBatch, 'type');
  if (!isObject(m.data)) refuse(400, 'MESSAGE_INVALID', i, isBatch, 'data');
  if (!('value' in m.data)) refuse(400, 'MESSAGE_INVALID', i, isBatch, 'data.value');
}

function checkValues(m: Obj, i: number, isBatch: boolean, device: DeviceRecord, nowMs: number): ValidMessage {
  const data = m.data as Obj;
  if (m.type !== device.type) refuse(422, 'TYPE_MISMATCH', i, isBatch, 'type');
  let valueNum: number | null = null;
  let valueText: GateState | null = null;
  // `data.unit`, if sent, must be `m` (docs/protocol.md); a gate may also send the `null` unit its
  // readings have in the API.
  const unitOk = data.unit === undefined || data.unit === 'm' || (data.unit === null && device.type === 'motorized_gate');
  if (!unitOk) refuse(422, 'UNIT_INVALID', i, isBatch, 'data.unit');
  if (device.type === 'level_sensor') {
    if (typeof data.value !== 'number' || !Number.isFinite(data.value)) refuse(422, 'VALUE_INVALID', i, isBatch, 'data.value');
    valueNum = data.value;
  } else {
    if (typeof data.value !== 'string' || !(GATE_STATES as readonly string[]).includes(data.value)) {
      refuse(422, 'VALUE_INVALID', i, isBatch, 'data.value');
    }
    valueText = data.value as GateState;
  }
  return {
    tsMs: parseTs(m.ts, nowMs, i, isBatch),
    valueNum,
    valueText,
    seq: parseSeq(m.seq, i, isBatch),
    boot: parseBoot(m.boot, i, isBatch),
  };
}

function parseTs(ts: unknown, nowMs: number, i: number, isBatch: boolean): number {
  if (ts === undefined) return nowMs;
  let ms: number;
  if (typeof ts === 'number') {
    if (!Number.isFinite(ts)) refuse(422, 'TS_INVALID', i, isBatch, 'ts');
    if (ts < MIN_EPOCH_MS) refuse(422, 'TS_LOOKS_LIKE_SECONDS', i, isBatch, 'ts');
    ms = Math.round(ts);
  } else {
    const parsed = typeof ts === 'string' ? parseRequestTime(ts) : null;
    if (parsed === null) refuse(422, 'TS_INVALID', i, isBatch, 'ts');
    ms = parsed;
  }
  if (ms > nowMs + FUTURE_TOLERANCE_MS) refuse(422, 'TS_IN_FUTURE', i, isBatch, 'ts');
  if (ms < MIN_READING_TS_MS) refuse(422, 'TS_TOO_OLD', i, isBatch, 'ts');
  return ms;
}

function parseSeq(seq: unknown, i: number, isBatch: boolean): number | null {
  if (seq === undefined) return null;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) refuse(422, 'SEQ_INVALID', i, isBatch, 'seq');
  return seq;
}

function parseBoot(boot: unknown, i: number, isBatch: boolean): string {
  if (boot === undefined) return '';
  if (typeof boot !== 'string' || boot.length > MAX_BOOT_LENGTH) refuse(422, 'BOOT_INVALID', i, isBatch, 'boot');
  return boot;
}
