import type { FastifyBaseLogger } from 'fastify';
import type { DetectedSpill, Geometry, ReadingStatus } from '@agua/shared';
import { newId } from '../../lib/ids';
import { KeyedSerial } from '../../lib/keyed-serial';
import type { ReadingBatches } from '../water/reading-points';
import { LiveSpills } from '../water/live-spills';
import type { DetectedFields, OverflowEventRecord, OverflowEventsRepository } from './overflow-events.repository';

type Row = { tsMs: number; valueNum: number | null; status: ReadingStatus };

export interface OverflowRecorderDeps {
  repo: OverflowEventsRepository;
  geometryAt(deviceId: string, tsMs: number): Geometry;
  geometryNow(deviceId: string): Geometry;
  /** Whether any geometry version of the device has a crest: readings of one that never had can spill nothing. */
  everHadCrest(deviceId: string): boolean;
  /** Stored readings in a range, oldest first. */
  readings: ReadingBatches;
  /** The level sensors in service (judged at start). */
  levelSensors(): string[];
  /**
   * Whether this instance sees every committed reading of its devices (one instance). With
   * several, one device's readings may be split between them (an external broker's shared
   * subscription), so none judges them as they come: the leader judges every device from stored
   * readings instead (`catchUp`, on the job list).
   */
  inline: boolean;
  /** An event was stored, changed or closed: the live socket tells the browsers. */
  changed(event: OverflowEventRecord): void;
  log: FastifyBaseLogger;
  now?: () => number;
}

/** How far back a device never judged before is judged at start. */
export const FIRST_JUDGE_LOOKBACK_MS = 7 * 24 * 3_600_000;
/** How often an open event's peak, volume and duration, and the judging cursors, are written (app.ts's job list). */
export const OVERFLOW_FLUSH_EVERY_MS = 10_000;
/** The longest a readings' acknowledgement waits for their judging. */
const ACK_WAIT_MS = 2_000;
const RETRY_FIRST_MS = 5_000;
const RETRY_MAX_MS = 60_000;
/** Periods chain across a gap this long (docs/water.md "Daily totals"). */
const LINK_MS = 15 * 60_000;

interface DeviceBook {
  /** The stored event the run's open spill is, when one is open. */
  openId: string | null;
  /** Readings judged since the last write of the open event or the cursor. */
  dirty: boolean;
  /** The cursor this instance last wrote (or read) for the device. */
  cursor: number | null;
  /** Rows handed over before this sequence number were in the last replay's read. */
  replayedBeforeSeq: number;
}

/**
 * Keeps the stored overflow events of level sensors (docs/water.md "Overflow events") from their
 * committed readings, on the instance that stores them (a device's owner):
 *
 * - in-order readings go through the same `SpillTracker` rule as everything else (one run per
 *   device); an opening inserts the event, a closing completes it, and an open event's peak,
 *   volume and duration are written every OVERFLOW_FLUSH_EVERY_MS;
 * - a reading older than one already judged (a late batch), a device first heard here, or a
 *   device another instance judged meanwhile is **replayed** from stored readings: from a point
 *   where no event was open or forming, the rule runs again and its events are merged into the
 *   stored ones by overlap — ids, cause, notes and notification kept — in one transaction;
 * - each device's cursor (its newest judged reading) is stored with its events, so a restart
 *   replays from there and nothing committed is left unjudged.
 *
 * Work is serialized per device; rows are taken in the order their commits were announced.
 */
export class OverflowRecorder {
  private readonly runs: LiveSpills;
  private readonly books = new Map<string, DeviceBook>();
  private readonly serial = new KeyedSerial();
  /** Changes of the run being fed (collected synchronously by the listener, written after). */
  private pending: Array<{ deviceId: string; kind: 'opened' | 'closed'; spill: DetectedSpill }> = [];
  /** Newest row handed over per device (what a replay must read up to). */
  private readonly arrivedNewest = new Map<string, number>();
  private seq = 0;
  private readonly now: () => number;
  private readonly retries = new Map<string, NodeJS.Timeout>();
  private readonly retryPauses = new Map<string, number>();

  constructor(private readonly d: OverflowRecorderDeps) {
    this.now = d.now ?? Date.now;
    this.runs = new LiveSpills((id, tsMs) => d.geometryAt(id, tsMs));
    this.runs.on({
      opened: (deviceId, spill) => this.pending.push({ deviceId, kind: 'opened', spill }),
      closed: (deviceId, spill) => this.pending.push({ deviceId, kind: 'closed', spill }),
    });
  }

  /** Judges every level sensor from its cursor (at start; with several instances, again and again on the leader): what was committed is never left out. */
  async catchUp(): Promise<void> {
    await Promise.all(this.d.levelSensors().map((id) => this.serial.run(id, () => this.startDevice(id)).catch((err: unknown) => this.failed(id, err))));
  }

  /**
   * A commit's readings of one device (any order). Resolves once they are judged — or after
   * ACK_WAIT_MS, so that a slow replay or a database that stopped answering never holds the
   * readings' acknowledgement (the judging goes on). Never rejects.
   */
  readingsStored(deviceId: string, rows: readonly Row[]): Promise<void> {
    // Most devices never had a crest: their readings cost one lookup here, nothing more.
    if (rows.length === 0 || !this.d.everHadCrest(deviceId)) return Promise.resolve();
    if (!this.d.inline) return this.markLate(deviceId, rows);
    const seq = ++this.seq;
    let newest = this.arrivedNewest.get(deviceId) ?? -Infinity;
    for (const row of rows) if (row.tsMs > newest) newest = row.tsMs;
    this.arrivedNewest.set(deviceId, newest);
    const judged = this.serial.run(deviceId, () => this.take(deviceId, rows, seq)).catch((err: unknown) => this.failed(deviceId, err));
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ACK_WAIT_MS);
      timer.unref();
    });
    return Promise.race([judged, waited]).finally(() => clearTimeout(timer));
  }

  /** Several instances: readings older than the device's cursor are marked for the leader's next replay. */
  private async markLate(deviceId: string, rows: readonly Row[]): Promise<void> {
    let oldest = Infinity;
    for (const row of rows) if (row.tsMs < oldest) oldest = row.tsMs;
    try {
      await this.d.repo.markLate(deviceId, oldest);
    } catch (err) {
      // The readings are stored; only a late batch's re-judging waits for the next restart.
      this.d.log.error({ err, deviceId }, 'late readings could not be marked for overflow judging');
    }
  }

  /** Writes open events' progress and the cursors (the job list; also at stop). */
  async flush(): Promise<void> {
    const ids = [...this.books].filter(([, book]) => book.dirty).map(([id]) => id);
    await Promise.all(ids.map((id) => this.serial.run(id, () => this.flushDevice(id)).catch((err: unknown) => this.failed(id, err))));
  }

  /** Waits for the work asked so far (tests, shutdown). */
  async settle(): Promise<void> {
    await Promise.all([...this.arrivedNewest.keys(), ...this.books.keys()].map((id) => this.serial.run(id, async () => undefined)));
  }

  forget(deviceId: string): void {
    this.books.delete(deviceId);
    this.arrivedNewest.delete(deviceId);
    this.runs.forget(deviceId);
  }

  private async startDevice(deviceId: string): Promise<void> {
    if (!this.d.everHadCrest(deviceId)) return;
    const cursor = await this.d.repo.cursor(deviceId);
    if (cursor === null) return this.replay(deviceId, this.now() - FIRST_JUDGE_LOOKBACK_MS);
    await this.replay(deviceId, Math.min(cursor.judgedToMs + 1, cursor.lateFromMs ?? Infinity), cursor.lateFromMs);
  }

  private async take(deviceId: string, rows: readonly Row[], seq: number): Promise<void> {
    const book = this.books.get(deviceId);
    if (!book) {
      // First heard here since start: judged from the stored cursor, these rows included.
      const cursor = await this.d.repo.cursor(deviceId);
      const oldest = Math.min(...rows.map((r) => r.tsMs));
      await this.replay(deviceId, cursor === null ? oldest : Math.min(cursor.judgedToMs + 1, oldest));
      return;
    }
    if (seq < book.replayedBeforeSeq) {
      // Committed before the last replay read the readings: only what it could not see is new.
      this.feed(deviceId, rows);
    } else {
      const judged = this.runs.judgedTo(deviceId) ?? -Infinity;
      const late = rows.filter((r) => r.tsMs <= judged);
      if (late.length > 0) {
        await this.replay(deviceId, Math.min(...late.map((r) => r.tsMs), book.cursor === null ? Infinity : book.cursor + 1, judged + 1));
        return;
      }
      this.feed(deviceId, rows);
    }
    await this.writeChanges(deviceId);
  }

  private feed(deviceId: string, rows: readonly Row[]): void {
    if (this.runs.addRows(deviceId, rows)) this.bookOf(deviceId).dirty = true;
  }

  /** The openings and closings the last rows made, stored. */
  private async writeChanges(deviceId: string): Promise<void> {
    const changes = this.pending.filter((c) => c.deviceId === deviceId);
    this.pending = this.pending.filter((c) => c.deviceId !== deviceId);
    if (changes.length === 0) return;
    const book = this.bookOf(deviceId);
    const judgedTo = this.runs.judgedTo(deviceId) ?? this.now();
    const written: OverflowEventRecord[] = [];
    const nowMs = this.now();
    await this.d.repo.transaction(async (tx) => {
      for (const change of changes) {
        const fields = detected(change.spill, judgedTo);
        if (change.kind === 'opened' || book.openId === null) {
          const id = newId('ovf');
          await this.d.repo.insert(tx, id, deviceId, fields, nowMs);
          book.openId = change.kind === 'opened' ? id : null;
          written.push(record(id, deviceId, fields, nowMs));
        } else {
          await this.d.repo.updateDetected(tx, book.openId, fields, nowMs);
          written.push(record(book.openId, deviceId, fields, nowMs));
          book.openId = null;
        }
      }
      await this.d.repo.setCursor(tx, deviceId, judgedTo);
    });
    book.cursor = judgedTo;
    book.dirty = false;
    for (const event of written) this.announce(event);
  }

  private async flushDevice(deviceId: string): Promise<void> {
    const book = this.books.get(deviceId);
    const judgedTo = this.runs.judgedTo(deviceId);
    if (!book?.dirty || judgedTo === null) return;
    const open = this.runs.openOf(deviceId);
    const nowMs = this.now();
    let changed: OverflowEventRecord | null = null;
    await this.d.repo.transaction(async (tx) => {
      if (open && book.openId) {
        const fields = detected(open.spill, judgedTo);
        await this.d.repo.updateDetected(tx, book.openId, fields, nowMs);
        changed = record(book.openId, deviceId, fields, nowMs);
      }
      await this.d.repo.setCursor(tx, deviceId, judgedTo);
    });
    book.cursor = judgedTo;
    book.dirty = false;
    if (changed) this.announce(changed);
  }

  /**
   * Runs the rule again over stored readings from before `fromMs` and merges what it finds into
   * the stored events. The replay starts where no stored event was open, closing or forming: at
   * least the delays before `fromMs`, and before every event still open or ended within twice
   * that (plus the 15-minute link) — from there a fresh run reaches the same state the original did.
   */
  private async replay(deviceId: string, fromMs: number, lateFromMs: number | null = null): Promise<void> {
    const { spill } = this.d.geometryNow(deviceId);
    const marginMs = (spill.onDelayS + spill.offDelayS) * 1000;
    const near = await this.d.repo.touching(deviceId, fromMs - 2 * marginMs - LINK_MS);
    const anchorMs = Math.min(fromMs - marginMs, ...near.map((e) => e.startedAtMs));
    const replayedBeforeSeq = this.seq + 1;
    const toMs = (this.arrivedNewest.get(deviceId) ?? this.now()) + 1;

    const replay = new LiveSpills((id, tsMs) => this.d.geometryAt(id, tsMs));
    const found: DetectedSpill[] = [];
    replay.on({ opened: () => undefined, closed: (_id, s) => found.push(s) });
    for await (const rows of this.d.readings(deviceId, { fromMs: anchorMs, toMs })) replay.addRows(deviceId, rows);
    const open = replay.openOf(deviceId);
    if (open) found.push(open.spill);
    // No reading found: the cursor stays where it was (it moves forward only).
    const judgedTo = replay.judgedTo(deviceId) ?? fromMs - 1;

    const nowMs = this.now();
    const written: OverflowEventRecord[] = [];
    let openId: string | null = null;
    await this.d.repo.transaction(async (tx) => {
      // A write first: SQLite then takes the write lock (waiting for the writer thread's commit)
      // before the read below, which a later write could otherwise find stale (SQLITE_BUSY).
      await this.d.repo.setCursor(tx, deviceId, judgedTo);
      if (lateFromMs !== null) await this.d.repo.clearLate(tx, deviceId, lateFromMs);
      const stored = (await this.d.repo.touching(deviceId, anchorMs, tx)).filter((e) => e.startedAtMs >= anchorMs);
      const { pairs, unmatched } = matchByOverlap(found, stored);
      // Events the readings no longer show (a late batch filled a dip, a version moved the crest):
      // removed first, so that no kept event's new start meets theirs.
      await this.d.repo.remove(tx, unmatched.map((e) => e.id));
      if (unmatched.length > 0) this.d.log.info({ deviceId, removed: unmatched.map((e) => e.id) }, 'overflow events replaced after a replay of the readings');
      for (const [spillFound, existing] of pairs) {
        const fields = detected(spillFound, judgedTo);
        const id = existing?.id ?? newId('ovf');
        if (existing) {
          if (!sameDetected(existing, fields)) {
            await this.d.repo.updateDetected(tx, id, fields, nowMs);
            written.push({ ...existing, ...fields, updatedAtMs: nowMs });
          }
        } else {
          await this.d.repo.insert(tx, id, deviceId, fields, nowMs);
          written.push(record(id, deviceId, fields, nowMs));
        }
        if (spillFound.endedAtMs === null) openId = id;
      }
    });

    this.runs.adopt(deviceId, replay);
    this.pending = this.pending.filter((c) => c.deviceId !== deviceId);
    const book = this.bookOf(deviceId);
    book.openId = openId;
    book.cursor = judgedTo;
    book.dirty = false;
    book.replayedBeforeSeq = replayedBeforeSeq;
    for (const event of written) this.announce(event);
  }

  private bookOf(deviceId: string): DeviceBook {
    let book = this.books.get(deviceId);
    if (!book) {
      book = { openId: null, dirty: false, cursor: null, replayedBeforeSeq: 0 };
      this.books.set(deviceId, book);
    }
    return book;
  }

  private announce(event: OverflowEventRecord): void {
    try {
      this.d.changed(event);
    } catch (err) {
      this.d.log.error({ err, eventId: event.id }, 'an overflow event change could not be announced');
    }
  }

  /**
   * The readings are stored, their judging is not: the device is judged again from its stored
   * cursor, when next heard or after a pause that doubles while the database keeps failing.
   */
  private failed(deviceId: string, err: unknown): void {
    this.books.delete(deviceId);
    this.runs.forget(deviceId);
    this.pending = this.pending.filter((c) => c.deviceId !== deviceId);
    const pauseMs = Math.min(RETRY_MAX_MS, (this.retryPauses.get(deviceId) ?? RETRY_FIRST_MS / 2) * 2);
    this.retryPauses.set(deviceId, pauseMs);
    this.d.log.error({ err, deviceId, retryInMs: pauseMs }, 'overflow events could not be kept up to date; the device is judged again from its cursor');
    clearTimeout(this.retries.get(deviceId));
    const timer = setTimeout(() => {
      this.retries.delete(deviceId);
      if (this.books.has(deviceId)) return;
      void this.serial.run(deviceId, () => this.startDevice(deviceId)).then(
        () => this.retryPauses.delete(deviceId),
        (again: unknown) => this.failed(deviceId, again),
      );
    }, pauseMs);
    timer.unref();
    this.retries.set(deviceId, timer);
  }

  /** Shutdown: no more retries, and the open events' progress written. */
  async stop(): Promise<void> {
    for (const timer of this.retries.values()) clearTimeout(timer);
    this.retries.clear();
    await this.flush();
  }
}

/** What a spill found in the readings stores: an open one lasts to the newest judged reading. */
function detected(spill: DetectedSpill, judgedToMs: number): DetectedFields {
  return {
    startedAtMs: spill.startedAtMs,
    endedAtMs: spill.endedAtMs,
    lastReadingMs: Math.max(spill.startedAtMs, judgedToMs),
    peakLevelM: spill.peakLevelM,
    volumeM3: spill.volumeM3,
    method: spill.volumeM3 === null ? null : 'weir',
  };
}

function record(id: string, deviceId: string, f: DetectedFields, nowMs: number): OverflowEventRecord {
  return { id, deviceId, ...f, cause: null, notifiedAtMs: null, notes: null, updatedAtMs: nowMs };
}

function sameDetected(e: OverflowEventRecord, f: DetectedFields): boolean {
  return (
    e.startedAtMs === f.startedAtMs &&
    e.endedAtMs === f.endedAtMs &&
    (e.endedAtMs !== null || e.lastReadingMs === f.lastReadingMs) &&
    e.peakLevelM === f.peakLevelM &&
    e.volumeM3 === f.volumeM3 &&
    e.method === f.method
  );
}

/**
 * Pairs spills found by a replay with stored events (both oldest first) by overlapping time: a
 * pair keeps the stored id and people's fields. Spills with no partner are new; stored events
 * with none are gone.
 */
export function matchByOverlap(
  found: readonly DetectedSpill[],
  stored: readonly OverflowEventRecord[],
): { pairs: Array<[DetectedSpill, OverflowEventRecord | null]>; unmatched: OverflowEventRecord[] } {
  const used = new Set<string>();
  const pairs: Array<[DetectedSpill, OverflowEventRecord | null]> = [];
  for (const spill of found) {
    const end = spill.endedAtMs ?? Infinity;
    const partner = stored.find((e) => !used.has(e.id) && e.startedAtMs <= end && (e.endedAtMs ?? Infinity) >= spill.startedAtMs);
    if (partner) used.add(partner.id);
    pairs.push([spill, partner ?? null]);
  }
  return { pairs, unmatched: stored.filter((e) => !used.has(e.id)) };
}
