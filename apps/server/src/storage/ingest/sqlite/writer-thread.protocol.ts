import type { AlarmChangeRow, GateStateRow, LastSeenRow, OutboxClaimRow, OutboxOutcomeRow, OutboxRow, ReadingRow } from '../rows';

/**
 * What the server asks of the writer thread (readings, alarm changes, the notification outbox);
 * each request is answered once. Requests are carried out in the order they were sent.
 *
 * Requests carrying alarm changes say how many failed alarm writes the server had heard of when
 * it computed them (`alarmFailuresSeen`): changes computed on top of a write that has since failed
 * are refused (AlarmWriteOrder).
 */
export type WriterRequest =
  | { id: number; op: 'write'; packed: PackedReadings; changes: AlarmChangeRow[]; alarmFailuresSeen: number }
  | { id: number; op: 'alarms'; changes: AlarmChangeRow[]; alarmFailuresSeen: number }
  | { id: number; op: 'outboxWrite'; entries: OutboxRow[] }
  | { id: number; op: 'outboxClaim'; claims: OutboxClaimRow[] }
  | { id: number; op: 'outboxSettle'; outcomes: OutboxOutcomeRow[] }
  | { id: number; op: 'pruneExpiredSeqs'; nowMs: number }
  | { id: number; op: 'gateState'; row: GateStateRow }
  | { id: number; op: 'lastSeen'; rows: LastSeenRow[] }
  | { id: number; op: 'forgetDevice'; deviceId: string }
  | { id: number; op: 'pragma'; statement: string }
  | { id: number; op: 'close' };

/** A failure crosses the thread as data; its SQLite code is what classifies it (StorageHealth). */
export interface WriterFailure {
  message: string;
  code?: string;
}

export type WriterResponse = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: WriterFailure };

/** The answers to every request the thread found waiting, in one message; and how many alarm writes have failed so far. */
export interface WriterAnswers {
  responses: WriterResponse[];
  alarmFailures: number;
}

/** The thread's start parameters. */
export interface WriterThreadData {
  file: string;
}

/**
 * Readings as one flat array of primitives, FIELDS values per reading: cloning it to the thread
 * costs a fraction of cloning as many objects.
 */
export type PackedReadings = Array<string | number | boolean | null>;
const FIELDS = 10;

/** How many readings a packed array holds. */
export const packedCount = (packed: PackedReadings): number => packed.length / FIELDS;

export function packReadings(items: ReadingRow[]): PackedReadings {
  const out: PackedReadings = new Array(items.length * FIELDS);
  let i = 0;
  for (const r of items) {
    out[i++] = r.deviceId;
    out[i++] = r.tsMs;
    out[i++] = r.valueNum;
    out[i++] = r.valueText;
    out[i++] = r.status;
    out[i++] = r.seq;
    out[i++] = r.boot;
    out[i++] = r.receivedMs;
    out[i++] = r.fromDevice;
    out[i++] = r.rawNum;
  }
  return out;
}

/** Unpacks readings, appending them to `out`. */
export function unpackReadings(packed: PackedReadings, out: ReadingRow[] = []): ReadingRow[] {
  for (let i = 0; i < packed.length; i += FIELDS) {
    out.push({
      deviceId: packed[i] as string,
      tsMs: packed[i + 1] as number,
      valueNum: packed[i + 2] as number | null,
      valueText: packed[i + 3] as string | null,
      status: packed[i + 4] as ReadingRow['status'],
      seq: packed[i + 5] as number | null,
      boot: packed[i + 6] as string,
      receivedMs: packed[i + 7] as number,
      fromDevice: packed[i + 8] as boolean,
      rawNum: packed[i + 9] as number | null,
    });
  }
  return out;
}
