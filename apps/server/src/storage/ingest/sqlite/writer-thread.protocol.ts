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
 * Readings as they cross to the thread: their numbers in one Float64Array, which moves to the
 * thread without a copy (it is in the transfer list), and their strings (device ids, boots,
 * statuses, gate states: a handful per batch) once each in a table the numbers point into.
 * Cloning a batch of 100 readings as an array of 1,000 values cost three times as much
 * (docs/bench/ingest-profile.md). A missing number (null) travels as NaN: SQLite stores NaN as
 * NULL anyway, and no reading carries one.
 */
export interface PackedReadings {
  numbers: Float64Array;
  strings: string[];
}
/** Numbers per reading: device, ts, value, text, status, seq, boot, received, fromDevice, raw. */
const FIELDS = 10;
const NO_STRING = -1;

/** How many readings a packed batch holds. */
export const packedCount = (packed: PackedReadings): number => packed.numbers.length / FIELDS;

/** What to put in postMessage's transfer list for a packed batch. */
export const transferOf = (packed: PackedReadings): ArrayBuffer[] => [packed.numbers.buffer as ArrayBuffer];

export function packReadings(items: ReadingRow[]): PackedReadings {
  const numbers = new Float64Array(items.length * FIELDS);
  const strings: string[] = [];
  const indexOf = new Map<string, number>();
  const string = (s: string | null): number => {
    if (s === null) return NO_STRING;
    let i = indexOf.get(s);
    if (i === undefined) {
      i = strings.push(s) - 1;
      indexOf.set(s, i);
    }
    return i;
  };
  let i = 0;
  for (const r of items) {
    numbers[i++] = string(r.deviceId);
    numbers[i++] = r.tsMs;
    numbers[i++] = r.valueNum ?? NaN;
    numbers[i++] = string(r.valueText);
    numbers[i++] = string(r.status);
    numbers[i++] = r.seq ?? NaN;
    numbers[i++] = string(r.boot);
    numbers[i++] = r.receivedMs;
    numbers[i++] = r.fromDevice ? 1 : 0;
    numbers[i++] = r.rawNum ?? NaN;
  }
  return { numbers, strings };
}

/** Unpacks readings, appending them to `out`. */
export function unpackReadings({ numbers, strings }: PackedReadings, out: ReadingRow[] = []): ReadingRow[] {
  const string = (i: number): string | null => (i === NO_STRING ? null : strings[i]!);
  const number = (n: number): number | null => (Number.isNaN(n) ? null : n);
  for (let i = 0; i < numbers.length; i += FIELDS) {
    out.push({
      deviceId: strings[numbers[i]!]!,
      tsMs: numbers[i + 1]!,
      valueNum: number(numbers[i + 2]!),
      valueText: string(numbers[i + 3]!),
      status: strings[numbers[i + 4]!] as ReadingRow['status'],
      seq: number(numbers[i + 5]!),
      boot: strings[numbers[i + 6]!]!,
      receivedMs: numbers[i + 7]!,
      fromDevice: numbers[i + 8] === 1,
      rawNum: number(numbers[i + 9]!),
    });
  }
  return out;
}
