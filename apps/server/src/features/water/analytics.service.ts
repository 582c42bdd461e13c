import { AnalyticsBuckets, OpenBucket, SERIES_LINK_MS, type AnalyticsBucket, type BucketState } from '@agua/shared';
import { notFound } from '../../lib/errors';
import type { DeviceRecord } from '../devices/devices.repository';
import { bucketEdges, type AnalyticsStep } from './bucket-edges';
import { dayOnWholeHours, HOUR_MS } from './hour-figures';
import { usablePoint, type ReadingBatches } from './reading-points';
import { parseState, type StoredHour } from './water-hours.repository';
import type { HoursBasis, WaterHoursService } from './water-hours.service';

export interface AnalyticsSeries {
  fromMs: number;
  toMs: number;
  step: AnalyticsStep;
  items: AnalyticsBucket[];
}

interface Range {
  fromMs: number;
  toMs: number;
}

/** Buckets still to answer from the readings: their edges, the part of the range they cover, and a state the first resumes from. */
interface ScanRun {
  edges: number[];
  range: Range;
  resume?: BucketState;
}

/** One piece of the answer, in order: a bucket told by a stored hour, or buckets scanned. */
type Piece = { stored: AnalyticsBucket | null } | { scan: ScanRun };

/**
 * Level, volume and flows of a level sensor per minute, hour or local day
 * (`GET /devices/{id}/analytics`, docs/water.md "Analytics: how they are answered"): hours and
 * days from the stored per-hour figures where they hold, the rest (minutes, the hour under way,
 * what the job has not stored yet) from the readings, streamed through, never held. Both give
 * the same answer to the last bit: a stored figure is the scan's own state at the hour's end.
 */
export class WaterAnalyticsService {
  constructor(
    private readonly readings: ReadingBatches,
    private readonly deviceOf: (id: string) => DeviceRecord | undefined,
    private readonly hours: WaterHoursService,
  ) {}

  async series(deviceId: string, range: Range, step: AnalyticsStep): Promise<AnalyticsSeries> {
    const device = this.deviceOf(deviceId);
    if (!device || device.type !== 'level_sensor') throw notFound('DEVICE_NOT_FOUND');
    const edges = bucketEdges(range.fromMs, range.toMs, step);
    const basis = this.hours.basis(device);
    const last = edges[edges.length - 1]!;
    const stored = step === '1m' ? new Map<number, StoredHour>() : await this.hours.holding(deviceId, basis, step === '1d' ? 'day' : 'hour', edges[0]!, last);
    const pieces = step === '1d' ? dayPieces(edges, range, stored) : hourPieces(edges, range, stored);
    const items: AnalyticsBucket[] = [];
    for (const piece of pieces) {
      if ('scan' in piece) items.push(...(await this.scan(deviceId, basis, piece.scan)));
      else if (piece.stored) items.push(piece.stored);
    }
    return { ...range, step, items };
  }

  /** Buckets from the readings: those before the run's range only open its first series. */
  private async scan(deviceId: string, basis: HoursBasis, run: ScanRun): Promise<AnalyticsBucket[]> {
    const buckets = new AnalyticsBuckets(run.edges, basis.deadbandM3, run.resume);
    // A resumed bucket already holds its series' start: nothing before the range is needed.
    const readFrom = run.resume ? run.range.fromMs : run.edges[0]! - SERIES_LINK_MS;
    for await (const rows of this.readings(deviceId, { fromMs: readFrom, toMs: run.range.toMs })) {
      for (const row of rows) {
        const p = usablePoint(row, basis.timeline);
        if (!p) continue;
        if (p.tsMs < run.range.fromMs) buckets.remember(p);
        else buckets.add(p);
      }
    }
    return buckets.finish();
  }
}

/** The part of the range inside [fromMs, toMs). */
const within = (range: Range, fromMs: number, toMs: number): Range => ({ fromMs: Math.max(range.fromMs, fromMs), toMs: Math.min(range.toMs, toMs) });

/** Adds bucket i to the scan run under way (or starts one). */
function scanBucket(pieces: Piece[], edges: readonly number[], i: number, range: Range): void {
  const last = pieces[pieces.length - 1];
  if (last && 'scan' in last && !last.scan.resume && last.scan.edges[last.scan.edges.length - 1] === edges[i]) {
    last.scan.edges.push(edges[i + 1]!);
    last.scan.range = within(range, last.scan.range.fromMs, edges[i + 1]!);
  } else {
    pieces.push({ scan: { edges: [edges[i]!, edges[i + 1]!], range: within(range, edges[i]!, edges[i + 1]!) } });
  }
}

/** Step 1h: an hour wholly inside the range with a stored row is told by it; the others are scanned. */
function hourPieces(edges: readonly number[], range: Range, stored: ReadonlyMap<number, StoredHour>): Piece[] {
  const pieces: Piece[] = [];
  for (let i = 0; i + 1 < edges.length; i++) {
    const row = stored.get(edges[i]!);
    if (row && edges[i]! >= range.fromMs && edges[i + 1]! <= range.toMs) pieces.push({ stored: OpenBucket.resumed(parseState(row.hourState), null).result(edges[i]!) });
    else scanBucket(pieces, edges, i, range);
  }
  return pieces;
}

/**
 * Step 1d: a local day starting inside the range, on whole hours, is told by the running figures
 * of its latest stored hour (ending inside the range), the rest of it scanned from there; other
 * days (the first when cut by the range, days off whole hours, days without a stored hour) are scanned.
 */
function dayPieces(edges: readonly number[], range: Range, stored: ReadonlyMap<number, StoredHour>): Piece[] {
  const pieces: Piece[] = [];
  for (let i = 0; i + 1 < edges.length; i++) {
    const [fromMs, toMs] = [edges[i]!, edges[i + 1]!];
    const endMs = Math.min(toMs, range.toMs);
    const row = fromMs >= range.fromMs && dayOnWholeHours(fromMs, toMs) ? latestDayRow(stored, fromMs, endMs) : undefined;
    if (!row) {
      scanBucket(pieces, edges, i, range);
      continue;
    }
    const state = parseState(row.dayState!);
    const doneMs = row.hourMs + HOUR_MS;
    if (doneMs >= endMs) pieces.push({ stored: OpenBucket.resumed(state, null).result(fromMs) });
    else pieces.push({ scan: { edges: [fromMs, toMs], range: { fromMs: doneMs, toMs: endMs }, resume: state } });
  }
  return pieces;
}

/** The latest stored hour of the day starting at `dayFromMs` that ends by `endMs` and carries that day's figures. */
function latestDayRow(stored: ReadonlyMap<number, StoredHour>, dayFromMs: number, endMs: number): StoredHour | undefined {
  for (let h = Math.floor(endMs / HOUR_MS) * HOUR_MS - HOUR_MS; h >= dayFromMs; h -= HOUR_MS) {
    const row = stored.get(h);
    if (row && row.dayFromMs === dayFromMs && row.dayState !== null) return row;
  }
  return undefined;
}
