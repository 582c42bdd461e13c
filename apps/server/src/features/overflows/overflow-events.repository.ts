import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, OverflowEventsTable } from '../../storage/schema';

/** An overflow event as stored (docs/water.md "Overflow events"). */
export interface OverflowEventRecord {
  id: string;
  deviceId: string;
  startedAtMs: number;
  endedAtMs: number | null;
  lastReadingMs: number;
  peakLevelM: number;
  volumeM3: number | null;
  method: 'weir' | null;
  cause: string | null;
  notifiedAtMs: number | null;
  notes: string | null;
  updatedAtMs: number;
}

/** What the readings decide of an event; the rest (cause, notes, notification) is people's. */
export type DetectedFields = Pick<OverflowEventRecord, 'startedAtMs' | 'endedAtMs' | 'lastReadingMs' | 'peakLevelM' | 'volumeM3' | 'method'>;

export type PeopleFields = Partial<Pick<OverflowEventRecord, 'cause' | 'notifiedAtMs' | 'notes'>>;

export interface OverflowQuery {
  deviceIds?: readonly string[];
  /** Started at or after. */
  fromMs?: number;
  /** Started before. */
  toMs?: number;
}

/** Newest first: strictly after this (started, id) in that order. */
export interface OverflowPosition {
  startedAtMs: number;
  id: string;
}

type Db = Kysely<Database> | Transaction<Database>;

const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

function toRecord(row: Selectable<OverflowEventsTable>): OverflowEventRecord {
  return {
    id: row.id,
    deviceId: row.device_id,
    startedAtMs: Number(row.started_at_ms),
    endedAtMs: num(row.ended_at_ms),
    lastReadingMs: Number(row.last_reading_ms),
    peakLevelM: Number(row.peak_level_m),
    volumeM3: num(row.volume_m3),
    method: row.method,
    cause: row.cause,
    notifiedAtMs: num(row.notified_at_ms),
    notes: row.notes,
    updatedAtMs: Number(row.updated_at_ms),
  };
}

function detectedColumns(f: DetectedFields) {
  return {
    started_at_ms: f.startedAtMs,
    ended_at_ms: f.endedAtMs,
    last_reading_ms: f.lastReadingMs,
    peak_level_m: f.peakLevelM,
    volume_m3: f.volumeM3,
    method: f.method,
  };
}

/** Stored overflow events and each device's judging cursor, on either engine. Retention never touches them. */
export class OverflowEventsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (tx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async get(id: string): Promise<OverflowEventRecord | null> {
    const row = await this.db.selectFrom('overflow_events').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  /** A page of events started in the range, newest first. */
  async page(q: OverflowQuery, limit: number, after?: OverflowPosition): Promise<OverflowEventRecord[]> {
    let query = this.filtered(q).selectAll();
    if (after) {
      query = query.where((eb) =>
        eb.or([eb('started_at_ms', '<', after.startedAtMs), eb.and([eb('started_at_ms', '=', after.startedAtMs), eb('id', '<', after.id)])]),
      );
    }
    const rows = await query.orderBy('started_at_ms', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map(toRecord);
  }

  /** Every event started in the range, oldest first (the counts; reports). */
  async all(q: OverflowQuery): Promise<OverflowEventRecord[]> {
    const rows = await this.filtered(q).selectAll().orderBy('started_at_ms').orderBy('id').execute();
    return rows.map(toRecord);
  }

  /** A device's events that started at or after `fromMs` or were still open or ending then, oldest first. */
  async touching(deviceId: string, fromMs: number, db: Db = this.db): Promise<OverflowEventRecord[]> {
    const rows = await db
      .selectFrom('overflow_events')
      .selectAll()
      .where('device_id', '=', deviceId)
      .where((eb) => eb.or([eb('ended_at_ms', 'is', null), eb('ended_at_ms', '>=', fromMs), eb('started_at_ms', '>=', fromMs)]))
      .orderBy('started_at_ms')
      .execute();
    return rows.map(toRecord);
  }

  async insert(db: Db, id: string, deviceId: string, f: DetectedFields, nowMs: number): Promise<void> {
    await db
      .insertInto('overflow_events')
      .values({ id, device_id: deviceId, ...detectedColumns(f), cause: null, notified_at_ms: null, notes: null, updated_at_ms: nowMs })
      .execute();
  }

  async updateDetected(db: Db, id: string, f: DetectedFields, nowMs: number): Promise<void> {
    await db.updateTable('overflow_events').set({ ...detectedColumns(f), updated_at_ms: nowMs }).where('id', '=', id).execute();
  }

  async remove(db: Db, ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await db.deleteFrom('overflow_events').where('id', 'in', ids).execute();
  }

  /** People's fields; null when the event is not there. */
  async updatePeople(id: string, fields: PeopleFields, nowMs: number): Promise<OverflowEventRecord | null> {
    const set: Partial<OverflowEventsTable> = { updated_at_ms: nowMs };
    if (fields.cause !== undefined) set.cause = fields.cause;
    if (fields.notes !== undefined) set.notes = fields.notes;
    if (fields.notifiedAtMs !== undefined) set.notified_at_ms = fields.notifiedAtMs;
    const result = await this.db.updateTable('overflow_events').set(set).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0 ? this.get(id) : null;
  }

  /** Events started per range, per range given (the daily totals' count). */
  async countsStarted(deviceId: string, ranges: readonly { fromMs: number; toMs: number }[]): Promise<number[]> {
    if (ranges.length === 0) return [];
    const rows = await this.db
      .selectFrom('overflow_events')
      .select('started_at_ms')
      .where('device_id', '=', deviceId)
      .where('started_at_ms', '>=', Math.min(...ranges.map((r) => r.fromMs)))
      .where('started_at_ms', '<', Math.max(...ranges.map((r) => r.toMs)))
      .execute();
    return ranges.map((r) => rows.filter((row) => Number(row.started_at_ms) >= r.fromMs && Number(row.started_at_ms) < r.toMs).length);
  }

  async cursor(deviceId: string): Promise<{ judgedToMs: number; lateFromMs: number | null } | null> {
    const row = await this.db.selectFrom('overflow_cursors').select(['judged_to_ms', 'late_from_ms']).where('device_id', '=', deviceId).executeTakeFirst();
    return row ? { judgedToMs: Number(row.judged_to_ms), lateFromMs: num(row.late_from_ms) } : null;
  }

  /** The cursor moves forward only (a replay that found no reading leaves it where it was). */
  async setCursor(db: Db, deviceId: string, judgedToMs: number): Promise<void> {
    await db
      .insertInto('overflow_cursors')
      .values({ device_id: deviceId, judged_to_ms: judgedToMs, late_from_ms: null })
      .onConflict((oc) =>
        oc.column('device_id').doUpdateSet({
          judged_to_ms: sql<number>`CASE WHEN overflow_cursors.judged_to_ms > excluded.judged_to_ms THEN overflow_cursors.judged_to_ms ELSE excluded.judged_to_ms END`,
        }),
      )
      .execute();
  }

  /** Readings stored at or before the cursor (several instances): the leader judges again from the oldest. */
  async markLate(deviceId: string, oldestMs: number): Promise<void> {
    await this.db
      .updateTable('overflow_cursors')
      .set({ late_from_ms: sql<number>`CASE WHEN late_from_ms IS NULL OR late_from_ms > ${oldestMs} THEN ${oldestMs} ELSE late_from_ms END` })
      .where('device_id', '=', deviceId)
      .where('judged_to_ms', '>=', oldestMs)
      .execute();
  }

  /** The late mark a replay covered, cleared unless an older one came meanwhile. */
  async clearLate(db: Db, deviceId: string, coveredFromMs: number): Promise<void> {
    await db.updateTable('overflow_cursors').set({ late_from_ms: null }).where('device_id', '=', deviceId).where('late_from_ms', '>=', coveredFromMs).execute();
  }

  private filtered(q: OverflowQuery) {
    let query = this.db.selectFrom('overflow_events');
    if (q.deviceIds) query = q.deviceIds.length > 0 ? query.where('device_id', 'in', q.deviceIds) : query.where('id', '=', '');
    if (q.fromMs !== undefined) query = query.where('started_at_ms', '>=', q.fromMs);
    if (q.toMs !== undefined) query = query.where('started_at_ms', '<', q.toMs);
    return query;
  }
}
