import { SERIES_LINK_MS, type SeriesPoint } from './series';

/** One bucket of `GET /devices/{id}/analytics` (docs/water.md). */
export interface AnalyticsBucket {
  tsMs: number;
  level: number;
  volumeM3: number | null;
  netFlowM3h: number | null;
  inflowM3: number | null;
  outflowM3: number | null;
}

/** The most buckets one request may ask for. */
export const MAX_ANALYTICS_BUCKETS = 10_000;

/**
 * A device's figures per bucket, fed one reading at a time so that a long range never holds its
 * readings in memory. `bounds` are the buckets' edges in order (n + 1 edges for n buckets:
 * aligned to UTC for minutes and hours, to local midnight for days). Empty buckets are left out.
 * Level and volume are the means of the bucket's own readings; in and out walk the bucket's
 * series (its readings, after the last one before it if at most 15 minutes older) as a day's do;
 * the net flow is their difference over the hours the series spans (none when it spans no time).
 * Readings must come in time order; those before the first edge only open the first series.
 */
export class AnalyticsBuckets {
  readonly items: AnalyticsBucket[] = [];
  private bucket = -1;
  private previous: SeriesPoint | null = null;
  private own = 0;
  private levelSum = 0;
  private volumeSum = 0;
  private volumes = 0;
  private walk: VolumeWalk | null = null;

  constructor(
    private readonly bounds: readonly number[],
    /** The in/out walk's dead band (0.2 % of V(maxLevel)); null without a shape. */
    private readonly deadbandM3: number | null,
  ) {}

  add(p: SeriesPoint): void {
    const index = this.bucketOf(p.tsMs);
    if (index !== this.bucket) {
      this.close();
      this.bucket = index;
      if (index >= 0) this.open();
    }
    if (this.bucket >= 0) {
      this.own++;
      this.levelSum += p.levelM;
      if (p.volumeM3 !== null) {
        this.volumeSum += p.volumeM3;
        this.volumes++;
        this.walkTo(p);
      }
    }
    this.previous = p;
  }

  /** A reading before the range asked for: it may only open the first bucket's series. */
  remember(p: SeriesPoint): void {
    this.previous = p;
  }

  /** The buckets, once every reading has been added. */
  finish(): AnalyticsBucket[] {
    this.close();
    this.bucket = -1;
    return this.items;
  }

  /** The bucket holding `tsMs`, -1 before the first edge or at or after the last. */
  private bucketOf(tsMs: number): number {
    const { bounds } = this;
    if (tsMs < bounds[0]! || tsMs >= bounds[bounds.length - 1]!) return -1;
    let lo = Math.max(0, this.bucket);
    if (tsMs < bounds[lo]!) lo = 0;
    let hi = bounds.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (bounds[mid]! <= tsMs) lo = mid;
      else hi = mid;
    }
    return lo;
  }

  private open(): void {
    this.own = 0;
    this.levelSum = 0;
    this.volumeSum = 0;
    this.volumes = 0;
    this.walk = null;
    const before = this.previous;
    const edge = this.bounds[this.bucket]!;
    if (before && before.volumeM3 !== null && edge - before.tsMs <= SERIES_LINK_MS) this.walkTo(before);
  }

  private walkTo(p: SeriesPoint): void {
    if (this.deadbandM3 === null) return;
    if (!this.walk) this.walk = new VolumeWalk(p, this.deadbandM3);
    else this.walk.to(p);
  }

  private close(): void {
    if (this.bucket < 0 || this.own === 0) return;
    const flows = this.walk?.totals() ?? null;
    const spanH = this.walk ? this.walk.spanMs() / 3_600_000 : 0;
    this.items.push({
      tsMs: this.bounds[this.bucket]!,
      level: this.levelSum / this.own,
      volumeM3: this.volumes > 0 ? this.volumeSum / this.volumes : null,
      netFlowM3h: flows && spanH > 0 ? (flows.inflowM3 - flows.outflowM3) / spanH : null,
      inflowM3: flows?.inflowM3 ?? null,
      outflowM3: flows?.outflowM3 ?? null,
    });
  }
}

/** The in/out walk of docs/water.md, one point at a time (the same rule as `inflowOutflow`). */
class VolumeWalk {
  private reference: number;
  private last: number;
  private inflow = 0;
  private outflow = 0;
  private readonly firstMs: number;
  private lastMs: number;

  constructor(first: SeriesPoint, private readonly deadbandM3: number) {
    this.reference = first.volumeM3!;
    this.last = this.reference;
    this.firstMs = first.tsMs;
    this.lastMs = first.tsMs;
  }

  to(p: SeriesPoint): void {
    const v = p.volumeM3!;
    if (v - this.reference > this.deadbandM3) {
      this.inflow += v - this.reference;
      this.reference = v;
    } else if (this.reference - v > this.deadbandM3) {
      this.outflow += this.reference - v;
      this.reference = v;
    }
    this.last = v;
    this.lastMs = p.tsMs;
  }

  totals(): { inflowM3: number; outflowM3: number } {
    const remainder = this.last - this.reference;
    return remainder > 0 ? { inflowM3: this.inflow + remainder, outflowM3: this.outflow } : { inflowM3: this.inflow, outflowM3: this.outflow - remainder };
  }

  spanMs(): number {
    return this.lastMs - this.firstMs;
  }
}

/** The buckets of readings already in memory (see AnalyticsBuckets). */
export function analyticsBuckets(points: readonly SeriesPoint[], bounds: readonly number[], deadbandM3: number | null): AnalyticsBucket[] {
  const buckets = new AnalyticsBuckets(bounds, deadbandM3);
  for (const p of points) buckets.add(p);
  return buckets.finish();
}
