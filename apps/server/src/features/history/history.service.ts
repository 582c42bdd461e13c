import { setImmediate as nextTurn } from 'node:timers/promises';
import { apiReading, type DeviceType, type Reading } from '@agua/shared';
import { badRequest, notFound } from '../../lib/errors';
import { closedRange, iso, parseRange, type MsRange } from '../../lib/time';
import type { ReadingsReader } from '../../storage/readings/readings-reader';
import type { HistoryRow, ReadingsRepository, RowPosition } from './readings.repository';

/** What history needs to know of a device (DevicesService provides it; retired ones included). */
export interface HistoryDevice {
  id: string;
  name: string;
  type: DeviceType;
}

export interface DeviceDirectory {
  get(id: string): HistoryDevice | undefined;
  list(includeRetired: boolean): HistoryDevice[];
}

export interface Bucket {
  ts: string;
  min: number;
  max: number;
  mean: number;
  count: number;
}

export type ReadingsAnswer =
  | { items: Reading[]; nextCursor: string | null }
  | { mode: 'buckets'; from: string; to: string; bucketMs: number; items: Bucket[] }
  | { mode: 'changes'; from: string; to: string; items: Reading[]; truncated: boolean };

export interface ReadingsQuery {
  from?: string | undefined;
  to?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
  points?: number | undefined;
}

export interface ExportQuery {
  from?: string | undefined;
  to?: string | undefined;
  deviceIds?: string | undefined;
  /** Only these devices (a site's, docs/sites.md); with deviceIds, those of them in it. */
  within?: ReadonlySet<string> | undefined;
}

/** What an export writes: the devices that have rows in the range, in sheet order. */
export interface ExportPlan {
  devices: HistoryDevice[];
  range: MsRange;
}

export interface HistoryOptions {
  /**
   * Data rows per sheet before a device continues on a further sheet: 1,048,576 rows of a sheet
   * less the header. Tests lower it to see the overflow without a million rows.
   */
  maxRowsPerSheet: number;
  /**
   * Rows per database query while exporting: each batch is one short query, then the event loop
   * runs. Small batches also keep fewer rows alive across GCs (benchmark: 500 peaks ~40 MB lower than 2000).
   */
  exportBatchSize: number;
}

export const EXCEL_MAX_DATA_ROWS = 1_048_575;
export const DEFAULT_PAGE_LIMIT = 1000;
/** Buckets (or gate slices) aggregated per query. */
const SLICES_PER_QUERY = 500;
/** Range of a `points` query without from/to: the last 24 hours. */
export const DEFAULT_TREND_MS = 24 * 3600 * 1000;

/** A page cursor: the last item's ts and id, opaque to clients. */
const encodeCursor = (p: RowPosition) => Buffer.from(`${p.tsMs}.${p.id}`).toString('base64url');
function decodeCursor(cursor: string): RowPosition {
  const m = /^(-?\d{1,16})\.(\d{1,16})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw badRequest('VALIDATION_FAILED', { field: 'cursor' });
  return { tsMs: Number(m[1]), id: Number(m[2]) };
}


/** Reading history: pages, trends (downsampled), and what the exports stream. */
export class HistoryService {
  readonly options: HistoryOptions;

  constructor(
    private readonly repo: ReadingsRepository,
    private readonly reader: ReadingsReader,
    private readonly devices: DeviceDirectory,
    options: Partial<HistoryOptions> = {},
  ) {
    this.options = { maxRowsPerSheet: EXCEL_MAX_DATA_ROWS, exportBatchSize: 500, ...options };
  }

  private device(id: string): HistoryDevice {
    const device = this.devices.get(id);
    if (!device) throw notFound('DEVICE_NOT_FOUND');
    return device;
  }

  /**
   * GET /devices/{id}/readings. Without `points`: a page, oldest first, of the whole history
   * unless from/to narrow it. With `points`: the last 24 h unless from/to say otherwise; level
   * sensors get at most `points` buckets, gates their state changes (at most `points`).
   */
  async readings(deviceId: string, q: ReadingsQuery, nowMs = Date.now()): Promise<ReadingsAnswer> {
    const range = parseRange(q.from, q.to);
    if (q.points !== undefined && q.cursor !== undefined) throw badRequest('VALIDATION_FAILED', { field: 'cursor', message: 'cursor pages readings; not with points' });
    const device = this.device(deviceId);
    if (q.points === undefined) {
      const limit = q.limit ?? DEFAULT_PAGE_LIMIT;
      const after = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
      const rows = await this.repo.page(device.id, range, limit + 1, after);
      const items = rows.slice(0, limit);
      const last = items[items.length - 1];
      return { items: items.map(apiReading), nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
    }
    const { fromMs, toMs } = closedRange(range, DEFAULT_TREND_MS, nowMs);
    if (device.type === 'motorized_gate') {
      const { rows, truncated } = await this.gateChanges(device.id, fromMs, toMs, q.points);
      return { mode: 'changes', from: iso(fromMs), to: iso(toMs), items: rows.map(apiReading), truncated };
    }
    // Width rounded up, so (ts - from) / width < points for every ts < to: never more than `points` buckets.
    const bucketMs = Math.max(1, Math.ceil((toMs - fromMs) / q.points));
    const count = Math.ceil((toMs - fromMs) / bucketMs);
    const items: Bucket[] = [];
    // At most 500 buckets per query: a month of 3-second readings is ~900,000 rows, and the
    // event loop (ingest, other requests) runs between the queries.
    for (let first = 0; first < count; first += SLICES_PER_QUERY) {
      if (first > 0) await nextTurn();
      for (const b of await this.repo.buckets(device.id, fromMs, toMs, bucketMs, first, Math.min(count, first + SLICES_PER_QUERY))) {
        items.push({ ts: iso(fromMs + b.bucket * bucketMs), min: b.min, max: b.max, mean: b.mean, count: b.count });
      }
    }
    return { mode: 'buckets', from: iso(fromMs), to: iso(toMs), bucketMs, items };
  }

  /**
   * A gate's state changes, oldest first, at most `limit`. Gates report their state every few
   * seconds and change it rarely, so rather than comparing every reading with the one before (a
   * window function: ~2 µs a row), the range is cut in slices of ~64 readings whose smallest and
   * largest state are aggregated over the index (~0.4 µs a row); only a slice that holds two
   * states, or another state than the slice before it, is compared reading by reading.
   */
  private async gateChanges(deviceId: string, fromMs: number, toMs: number, limit: number): Promise<{ rows: HistoryRow[]; truncated: boolean }> {
    const total = await this.repo.countRows(deviceId, fromMs, toMs);
    const slices = Math.min(Math.max(1, Math.ceil(total / 64)), toMs - fromMs);
    const widthMs = Math.ceil((toMs - fromMs) / slices);
    const count = Math.ceil((toMs - fromMs) / widthMs);
    const rows: HistoryRow[] = [];
    let state: string | null = null;
    for (let first = 0; first < count; first += SLICES_PER_QUERY) {
      if (first > 0) await nextTurn();
      for (const slice of await this.repo.sliceStates(deviceId, fromMs, toMs, widthMs, first, Math.min(count, first + SLICES_PER_QUERY))) {
        if (slice.min === slice.max && slice.min === state) continue;
        const sliceFrom = fromMs + slice.bucket * widthMs;
        const changes = await this.repo.stateChanges(deviceId, sliceFrom, Math.min(sliceFrom + widthMs, toMs), state, limit + 1 - rows.length);
        rows.push(...changes);
        if (rows.length > limit) return { rows: rows.slice(0, limit), truncated: true };
        if (changes.length > 0) state = changes[changes.length - 1]!.valueText;
      }
    }
    return { rows, truncated: false };
  }

  /**
   * Checks an export request before anything is streamed: range (400), device ids (404), and
   * which devices have rows in the range (none: 404 NO_DATA). Without deviceIds every device,
   * retired ones included (their history stays exportable), in the device list's order.
   */
  async planExport(q: ExportQuery): Promise<ExportPlan> {
    const range = parseRange(q.from, q.to);
    let candidates: HistoryDevice[];
    if (q.deviceIds !== undefined) {
      const ids = [...new Set(q.deviceIds.split(',').map((s) => s.trim()).filter(Boolean))];
      if (ids.length === 0) throw badRequest('VALIDATION_FAILED', { field: 'deviceIds' });
      candidates = ids.map((id) => this.device(id));
    } else {
      candidates = this.devices.list(true);
    }
    if (q.within) candidates = candidates.filter((d) => q.within!.has(d.id));
    const devices: HistoryDevice[] = [];
    for (const d of candidates) if (await this.repo.hasRows(d.id, range)) devices.push(d);
    if (devices.length === 0) throw notFound('NO_DATA');
    return { devices, range };
  }

  /**
   * A device's rows in the range, oldest first, in batches: keyset, so no query stays open
   * between batches, and the event loop runs (ingest, other requests) before each next one.
   */
  async *exportRows(deviceId: string, range: MsRange): AsyncGenerator<HistoryRow[]> {
    const size = this.options.exportBatchSize;
    let after: RowPosition | undefined;
    for (;;) {
      const rows = await this.reader.batchAfter(deviceId, range, size, after);
      if (rows.length > 0) yield rows;
      if (rows.length < size) return;
      const last = rows[rows.length - 1]!;
      after = { tsMs: last.tsMs, id: last.id };
      await nextTurn();
    }
  }
}
