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

/** A point as the next bucket's series may start with it. */
export interface LinkPoint {
  tsMs: number;
  volumeM3: number | null;
}

/** The in/out walk of docs/water.md part-way: its reference, totals so far and the span walked. */
export interface WalkState {
  reference: number;
  last: number;
  inflow: number;
  outflow: number;
  firstMs: number;
  lastMs: number;
}

/**
 * What a bucket has gathered so far. It is plain data so that it can be stored (the per-hour
 * figures keep one per hour and one per local day so far, docs/water.md "Analytics: how they are
 * answered") and resumed: a bucket resumed from its state and fed the rest of its readings ends
 * exactly as if it had been fed them all, to the last bit of every sum.
 */
export interface BucketState {
  /** The bucket's own usable readings. */
  own: number;
  levelSum: number;
  volumeSum: number;
  volumes: number;
  walk: WalkState | null;
  /** The bucket's last own reading: it may open the next bucket's series. */
  last: LinkPoint | null;
  /** The oldest reading the bucket holds (its series' link or its first own reading), null while none. */
  sinceMs: number | null;
}

/**
 * One bucket being filled. Level and volume are the means of its own readings; in and out walk
 * its series (its readings, after the last one before it if at most 15 minutes older) as a day's
 * do; the net flow is their difference over the hours the series spans (none when it spans no time).
 */
export class OpenBucket {
  private constructor(
    private readonly state: BucketState,
    /** The in/out walk's dead band (0.2 % of V(maxLevel)); null without a shape. */
    private readonly deadbandM3: number | null,
  ) {}

  /** A bucket opened at `edgeMs`: `before` (the last reading before it) starts its series when at most 15 minutes older. */
  static opening(edgeMs: number, before: LinkPoint | null, deadbandM3: number | null): OpenBucket {
    const bucket = new OpenBucket({ own: 0, levelSum: 0, volumeSum: 0, volumes: 0, walk: null, last: null, sinceMs: null }, deadbandM3);
    if (before && before.volumeM3 !== null && deadbandM3 !== null && edgeMs - before.tsMs <= SERIES_LINK_MS) {
      bucket.walkTo(before);
      bucket.state.sinceMs = before.tsMs;
    }
    return bucket;
  }

  /** A bucket resumed where a stored state left it. */
  static resumed(state: BucketState, deadbandM3: number | null): OpenBucket {
    return new OpenBucket(copyState(state), deadbandM3);
  }

  add(p: SeriesPoint): void {
    const s = this.state;
    s.own++;
    s.levelSum += p.levelM;
    if (p.volumeM3 !== null) {
      s.volumeSum += p.volumeM3;
      s.volumes++;
      this.walkTo(p);
    }
    s.last = { tsMs: p.tsMs, volumeM3: p.volumeM3 };
    s.sinceMs ??= p.tsMs;
  }

  /** A copy of what it holds now, to store. */
  snapshot(): BucketState {
    return copyState(this.state);
  }

  /** The bucket's figures, or null for a bucket without readings of its own (left out). */
  result(tsMs: number): AnalyticsBucket | null {
    const { own, levelSum, volumeSum, volumes, walk } = this.state;
    if (own === 0) return null;
    const flows = walk ? walkTotals(walk) : null;
    const spanH = walk ? (walk.lastMs - walk.firstMs) / 3_600_000 : 0;
    return {
      tsMs,
      level: levelSum / own,
      volumeM3: volumes > 0 ? volumeSum / volumes : null,
      netFlowM3h: flows && spanH > 0 ? (flows.inflowM3 - flows.outflowM3) / spanH : null,
      inflowM3: flows?.inflowM3 ?? null,
      outflowM3: flows?.outflowM3 ?? null,
    };
  }

  /** One step of the in/out walk (the same rule as `inflowOutflow`). */
  private walkTo(p: LinkPoint): void {
    if (this.deadbandM3 === null) return;
    const v = p.volumeM3!;
    const w = this.state.walk;
    if (!w) {
      this.state.walk = { reference: v, last: v, inflow: 0, outflow: 0, firstMs: p.tsMs, lastMs: p.tsMs };
      return;
    }
    if (v - w.reference > this.deadbandM3) {
      w.inflow += v - w.reference;
      w.reference = v;
    } else if (w.reference - v > this.deadbandM3) {
      w.outflow += w.reference - v;
      w.reference = v;
    }
    w.last = v;
    w.lastMs = p.tsMs;
  }
}

function copyState(s: BucketState): BucketState {
  return { ...s, walk: s.walk ? { ...s.walk } : null, last: s.last ? { ...s.last } : null };
}

/** The walk's totals: the remainder at the end goes to the side of its sign. */
function walkTotals(w: WalkState): { inflowM3: number; outflowM3: number } {
  const remainder = w.last - w.reference;
  return remainder > 0 ? { inflowM3: w.inflow + remainder, outflowM3: w.outflow } : { inflowM3: w.inflow, outflowM3: w.outflow - remainder };
}

/**
 * A device's figures per bucket, fed one reading at a time so that a long range never holds its
 * readings in memory. `bounds` are the buckets' edges in order (n + 1 edges for n buckets:
 * aligned to UTC for minutes and hours, to local midnight for days). Empty buckets are left out
 * (see OpenBucket for the figures). Readings must come in time order; those before the first edge
 * only open the first series. With `resume`, the first bucket starts from a stored state instead,
 * and is fed only the readings after those the state holds.
 */
export class AnalyticsBuckets {
  readonly items: AnalyticsBucket[] = [];
  private bucket = -1;
  private current: OpenBucket | null = null;
  private previous: LinkPoint | null = null;

  constructor(
    private readonly bounds: readonly number[],
    /** The in/out walk's dead band (0.2 % of V(maxLevel)); null without a shape. */
    private readonly deadbandM3: number | null,
    resume?: BucketState,
  ) {
    if (resume) {
      this.bucket = 0;
      this.current = OpenBucket.resumed(resume, deadbandM3);
      this.previous = resume.last;
    }
  }

  add(p: SeriesPoint): void {
    const index = this.bucketOf(p.tsMs);
    if (index !== this.bucket) {
      this.close();
      this.bucket = index;
      if (index >= 0) this.current = OpenBucket.opening(this.bounds[index]!, this.previous, this.deadbandM3);
    }
    this.current?.add(p);
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

  private close(): void {
    const item = this.current?.result(this.bounds[this.bucket]!);
    if (item) this.items.push(item);
    this.current = null;
  }
}

/** The buckets of readings already in memory (see AnalyticsBuckets). */
export function analyticsBuckets(points: readonly SeriesPoint[], bounds: readonly number[], deadbandM3: number | null): AnalyticsBucket[] {
  const buckets = new AnalyticsBuckets(bounds, deadbandM3);
  for (const p of points) buckets.add(p);
  return buckets.finish();
}
