/** The volume trend's columns for uPlot (x in seconds), with real gaps as the level trend has. */
import type uPlot from 'uplot';
import { medianSpacing } from '@/components/chart/level-series';
import type { AnalyticsItem } from '../api/get-device-analytics';

export interface VolumeColumns {
  data: uPlot.AlignedData;
  /** Points with a volume (not counting the nulls that mark gaps). */
  count: number;
}

/**
 * Buckets are drawn at their middle; `current` (the Device's live figures: the newest reading's
 * volume) ends the curve when it is newer than the last bucket. Where consecutive points are
 * further apart than `gapMs`, or three times their usual spacing, a null marks the gap, so a
 * silent sensor is not drawn as a straight line. Buckets without a volume are left out.
 */
export function buildVolumeColumns(items: readonly AnalyticsItem[] | undefined, stepMs: number, current: { tsMs: number; volumeM3: number } | null, gapMs: number): VolumeColumns {
  const rows: { t: number; v: number }[] = [];
  for (const b of items ?? []) if (b.volumeM3 !== null) rows.push({ t: Date.parse(b.ts) + stepMs / 2, v: b.volumeM3 });
  const last = rows[rows.length - 1];
  if (current && (!last || current.tsMs > last.t)) rows.push({ t: current.tsMs, v: current.volumeM3 });
  const threshold = Math.max(gapMs, 3 * medianSpacing(rows.map((r) => r.t)));
  const xs: number[] = [];
  const vs: (number | null)[] = [];
  let previous: number | null = null;
  for (const row of rows) {
    if (previous !== null && row.t - previous > threshold) {
      xs.push((previous + row.t) / 2000);
      vs.push(null);
    }
    xs.push(row.t / 1000);
    vs.push(row.v);
    previous = row.t;
  }
  return { data: [xs, vs], count: rows.length };
}
