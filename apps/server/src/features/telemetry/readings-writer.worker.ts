// The storage's writer thread: it owns its own connection to the database and writes the readings
// the alarm changes and the notification outbox, so the fsync of a commit never stops the server's event loop from parsing
// the next requests, and no other connection competes for the write lock (ADR 008, 009).
import { parentPort, workerData } from 'node:worker_threads';
import { openConnection } from '../../storage/database';
import { SqliteAlarmsWriter } from '../alarms/alarms.writer';
import type { AlarmNotice } from '../notifications/outbox';
import { SqliteOutboxWriter } from '../notifications/outbox.writer';
import { unpackReadings, type WriterRequest, type WriterResponse, type WriterThreadData } from './readings-writer.protocol';
import { SqliteReadingsWriter } from './readings.writer';

const { file } = workerData as WriterThreadData;
const sqlite = openConnection(file);
const writer = new SqliteReadingsWriter(sqlite);
const outbox = new SqliteOutboxWriter(sqlite);
const alarms = new SqliteAlarmsWriter(sqlite, (change, transitionId) => {
  if (change.notice) outbox.writeNotice(change.alarm.id, transitionId, change.notice as AlarmNotice, change.transition.atMs);
});
const port = parentPort!;

function run(req: WriterRequest): unknown {
  switch (req.op) {
    case 'write':
      // The alarm changes the readings cause commit in the readings' transaction (ADR 009).
      return writer.write(unpackReadings(req.packed), () => req.changes.length > 0 && alarms.writeAll(req.changes));
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
    case 'forgetDevice':
      return writer.forgetDevice(req.deviceId);
    case 'pragma':
      return sqlite.pragma(req.statement);
    case 'close':
      sqlite.close();
      return null;
  }
}

port.on('message', (req: WriterRequest) => {
  let response: WriterResponse;
  try {
    response = { id: req.id, ok: true, result: run(req) };
  } catch (err) {
    const { message, code } = err as { message?: string; code?: unknown };
    response = { id: req.id, ok: false, error: { message: message ?? String(err), ...(typeof code === 'string' ? { code } : {}) } };
  }
  port.postMessage(response);
  if (req.op === 'close') port.close();
});
