/** Turns trend buckets plus live readings into uPlot's columns (x in seconds) with real gaps. */
import type uPlot from 'uplot';
import type { Reading } from '@agua/shared';

/** A level sensor's downsampled stored readings (GET /devices/{id}/readings?points=N). */
export interface BucketTrend {
  /** End of the asked range: live readings from here on continue the trend. */
  to: string;
  bucketMs: number;
  items: { ts: string; min: number; max: number; mean: number }[];
}

export interface LevelColumns {
  data: uPlot.AlignedData;
  /** Points with a value (not counting the nulls that mark gaps). */
  count: number;
}

interface Row {
  t: number;
  min: number;
  max: number;
  mean: number;
}

/** Median spacing of consecutive times (ms); 0 with fewer than two. */
export function medianSpacing(times: number[]): number {
  if (times.length < 2) return 0;
  const diffs = times.slice(1).map((t, i) => t - times[i]!).sort((a, b) => a - b);
  return diffs[Math.floor(diffs.length / 2)]!;
}

/**
 * Buckets are drawn at their middle; live readings newer than the trend's end are appended as
 * one-reading buckets. Where consecutive points are further apart than `gapMs` a null row is
 * inserted, so a silent device shows a gap instead of a straight line across it. History stored
 * at a slower rate than the buckets (one reading every few minutes) is not a gap: the threshold
 * grows to three times the usual spacing of the points.
 */
export function buildLevelColumns(trend: BucketTrend | undefined, live: Reading[], gapMs: number): LevelColumns {
  const rows: Row[] = [];
  let endMs = Number.NEGATIVE_INFINITY;
  if (trend) {
    const half = trend.bucketMs / 2;
    for (const b of trend.items) rows.push({ t: Date.parse(b.ts) + half, min: b.min, max: b.max, mean: b.mean });
    endMs = Date.parse(trend.to);
  }
  for (const r of live) {
    const t = Date.parse(r.ts);
    if (t >= endMs && typeof r.value === 'number') rows.push({ t, min: r.value, max: r.value, mean: r.value });
  }
  const threshold = Math.max(gapMs, 3 * medianSpacing(rows.map((r) => r.t)));
  const xs: number[] = [];
  const mins: (number | null)[] = [];
  const maxs: (number | null)[] = [];
  const means: (number | null)[] = [];
  let previous: number | null = null;
  for (const row of rows) {
    if (previous !== null && row.t - previous > threshold) {
      xs.push((previous + row.t) / 2000);
      mins.push(null);
      maxs.push(null);
      means.push(null);
    }
    xs.push(row.t / 1000);
    mins.push(row.min);
    maxs.push(row.max);
    means.push(row.mean);
    previous = row.t;
  }
  return { data: [xs, mins, maxs, means], count: rows.length };
}

/**
 * The columns from `fromS` (seconds) on, keeping the one point before it so the line still enters
 * the window from its left edge: an hour on a card does not carry older points along.
 */
export function columnsSince(data: uPlot.AlignedData, fromS: number): uPlot.AlignedData {
  const xs = data[0];
  let first = 0;
  while (first < xs.length - 1 && xs[first + 1]! < fromS) first++;
  return first === 0 ? data : (data.map((column) => column.slice(first)) as uPlot.AlignedData);
}
