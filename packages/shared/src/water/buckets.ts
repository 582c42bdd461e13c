import { inflowOutflow, periodSeries, type SeriesPoint } from './series';

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
 * A device's figures per bucket: `bounds` are the buckets' edges in order (n + 1 edges for n
 * buckets: aligned to UTC for minutes and hours, to local midnight for days). Empty buckets are
 * left out. Level and volume are the means of the bucket's own readings; in and out walk the
 * bucket's series (its readings, after the last one before it if at most 15 minutes older) as a
 * day's do; the net flow is their difference over the hours the series spans (none when it spans
 * no time). `points` must be in time order.
 */
export function analyticsBuckets(points: readonly SeriesPoint[], bounds: readonly number[], deadbandM3: number | null): AnalyticsBucket[] {
  const items: AnalyticsBucket[] = [];
  let cursor = 0;
  for (let b = 0; b + 1 < bounds.length; b++) {
    const fromMs = bounds[b]!;
    const toMs = bounds[b + 1]!;
    while (cursor < points.length && points[cursor]!.tsMs < fromMs) cursor++;
    let end = cursor;
    let levelSum = 0;
    let volumeSum = 0;
    let volumes = 0;
    while (end < points.length && points[end]!.tsMs < toMs) {
      const p = points[end]!;
      levelSum += p.levelM;
      if (p.volumeM3 !== null) {
        volumeSum += p.volumeM3;
        volumes++;
      }
      end++;
    }
    const own = end - cursor;
    if (own === 0) continue;
    const series = periodSeries(points.slice(Math.max(0, cursor - 1), end), fromMs, toMs).filter((p) => p.volumeM3 !== null);
    const flows = deadbandM3 === null || series.length === 0 ? null : inflowOutflow(series.map((p) => p.volumeM3!), deadbandM3);
    const spanH = series.length > 1 ? (series[series.length - 1]!.tsMs - series[0]!.tsMs) / 3_600_000 : 0;
    items.push({
      tsMs: fromMs,
      level: levelSum / own,
      volumeM3: volumes > 0 ? volumeSum / volumes : null,
      netFlowM3h: flows && spanH > 0 ? (flows.inflowM3 - flows.outflowM3) / spanH : null,
      inflowM3: flows?.inflowM3 ?? null,
      outflowM3: flows?.outflowM3 ?? null,
    });
  }
  return items;
}
