// The ingest store's writer thread on SQLite: it owns its own connection to the database and
// writes the readings (with their current readings and seq runs), the alarm changes and the
// notification outbox, so the fsync of a commit never stops the server's event loop from parsing
// the next requests, and no other connection competes for the write lock
// (docs/decisions/014-ingest-store.md).
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { openConnection } from '../../database';
import { AlarmWriteOrder, REFUSED_ALARM_WRITE } from '../alarm-write-order';
import type { AlarmChangeRow, ReadingRow } from '../rows';
import { SqliteAlarmChangesWriter } from './alarm-changes.sqlite';
import { SqliteDeviceStateWriter } from './device-state.sqlite';
import { SqliteOutboxWriter } from './outbox.sqlite';
import {
  packedCount,
  unpackReadings,
  type WriterAnswers,
  type WriterFailure,
  type WriterRequest,
  type WriterResponse,
  type WriterThreadData,
} from './writer-thread.protocol';
import { SqliteReadingsWriter } from './readings.sqlite';

type WriteRequest = Extract<WriterRequest, { op: 'write' }>;

/** Readings merged into one transaction at most: a commit stays short, and so does the wait of the first of them. */
const MAX_MERGED_READINGS = 5000;

const { file } = workerData as WriterThreadData;
const sqlite = openConnection(file);
const writer = new SqliteReadingsWriter(sqlite);
const outbox = new SqliteOutboxWriter(sqlite);
const alarms = new SqliteAlarmChangesWriter(sqlite, outbox);
const deviceState = new SqliteDeviceStateWriter(sqlite);
const port = parentPort!;
/** Failed alarm writes, counted here; each request carries the count the server knew when it made it. */
const alarmOrder = new AlarmWriteOrder();
let closed = false;

/**
 * Every request waiting when the thread gets to them is taken at once, and consecutive writes of
 * readings share one transaction: while one commit is under way the next ones queue up here, so
 * the thread goes from commit to commit without waiting for the server's event loop in between.
 * Each transaction is answered as soon as it has committed.
 */
port.on('message', (first: WriterRequest) => {
  const waiting = [first];
  for (takeArrived(waiting); waiting.length > 0; takeArrived(waiting)) {
    const req = waiting.shift()!;
    const responses = req.op === 'write' ? writeTogether([req, ...takeWritesToMerge(waiting, packedCount(req.packed))]) : [answer(req)];
    port.postMessage({ responses, alarmFailures: alarmOrder.stamp() } satisfies WriterAnswers);
  }
  if (closed) port.close();
});

/** Appends the requests that arrived meanwhile (they get no 'message' event of their own). */
function takeArrived(waiting: WriterRequest[]): void {
  for (let next = receiveMessageOnPort(port); next !== undefined; next = receiveMessageOnPort(port)) waiting.push(next.message as WriterRequest);
}

/** The writes of readings at the head of the queue that join one of `readings` in its transaction. */
function takeWritesToMerge(waiting: WriterRequest[], readings: number): WriteRequest[] {
  const writes: WriteRequest[] = [];
  for (let next = waiting[0]; next?.op === 'write' && readings + packedCount(next.packed) <= MAX_MERGED_READINGS; next = waiting[0]) {
    readings += packedCount(next.packed);
    writes.push(next);
    waiting.shift();
  }
  return writes;
}

/** Readings of several requests, and the alarm changes they cause, in one transaction: all of them or none. */
function writeTogether(requests: WriteRequest[]): WriterResponse[] {
  const responses: WriterResponse[] = [];
  const admitted = requests.filter((req) => {
    if (!builtOnFailedWrite(req)) return true;
    responses.push(refusal(req.id));
    return false;
  });
  if (admitted.length === 0) return responses;
  const items: ReadingRow[] = [];
  const changes: AlarmChangeRow[] = [];
  for (const req of admitted) {
    unpackReadings(req.packed, items);
    for (const change of req.changes) changes.push(change);
  }
  try {
    const fresh = writer.write(items, () => changes.length > 0 && alarms.writeAll(changes));
    let offset = 0;
    for (const req of admitted) {
      const n = packedCount(req.packed);
      responses.push({ id: req.id, ok: true, result: fresh.slice(offset, offset + n) });
      offset += n;
    }
  } catch (err) {
    if (changes.length > 0) alarmOrder.failed();
    const error = failureOf(err);
    for (const req of admitted) responses.push({ id: req.id, ok: false, error });
  }
  return responses;
}

function answer(req: Exclude<WriterRequest, WriteRequest>): WriterResponse {
  if (req.op === 'alarms' && builtOnFailedWrite(req)) return refusal(req.id);
  try {
    return { id: req.id, ok: true, result: run(req) };
  } catch (err) {
    if (req.op === 'alarms') alarmOrder.failed();
    return { id: req.id, ok: false, error: failureOf(err) };
  }
}

function run(req: Exclude<WriterRequest, WriteRequest>): unknown {
  switch (req.op) {
    case 'alarms':
      return alarms.writeAll(req.changes);
    case 'outboxWrite':
      return outbox.write(req.entries);
    case 'outboxClaim':
      return outbox.claim(req.claims);
    case 'outboxSettle':
      return outbox.settle(req.outcomes);
    case 'pruneExpiredSeqs':
      return writer.pruneExpiredSeqs(req.nowMs);
    case 'gateState':
      return deviceState.writeGateState(req.row);
    case 'lastSeen':
      return deviceState.writeLastSeen(req.rows);
    case 'forgetDevice':
      return writer.forgetDevice(req.deviceId);
    case 'pragma':
      return sqlite.pragma(req.statement);
    case 'close':
      sqlite.close();
      closed = true;
      return null;
  }
}

/** Alarm changes computed before the server heard of a failed alarm write: made on top of changes that were never stored. */
function builtOnFailedWrite(req: { changes: AlarmChangeRow[]; alarmFailuresSeen: number }): boolean {
  return req.changes.length > 0 && alarmOrder.builtOnFailure(req.alarmFailuresSeen);
}

function refusal(id: number): WriterResponse {
  return { id, ok: false, error: { message: REFUSED_ALARM_WRITE, code: 'STORAGE_UNAVAILABLE' } };
}

function failureOf(err: unknown): WriterFailure {
  const { message, code } = err as { message?: string; code?: unknown };
  return { message: message ?? String(err), ...(typeof code === 'string' ? { code } : {}) };
}
