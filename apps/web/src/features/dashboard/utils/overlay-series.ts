/** The dashboard's comparison of level sensors: each one's last hour as percent of its own maxLevel. */
import type uPlot from 'uplot';
import type { Reading } from '@agua/shared';
// Relative, not '@/…': vitest runs this file without the app's path aliases.
import { buildLevelColumns, type BucketTrend } from '../../../components/chart/level-series';

export interface OverlaySource {
  trend: BucketTrend | undefined;
  live: Reading[];
  maxLevel: number;
  /** Points further apart than this are not joined (see buildLevelColumns). */
  gapMs: number;
}

/**
 * One x column for all sensors (seconds, sorted) and one percent column per sensor. A sensor has
 * `undefined` where only another sensor has a point (uPlot draws across those) and `null` where
 * it was silent (uPlot breaks the line there), so each line keeps its own gaps.
 */
export function buildOverlayColumns(sources: OverlaySource[]): uPlot.AlignedData {
  const perSensor = sources.map((s) => {
    const [xs, , , means] = buildLevelColumns(s.trend, s.live, s.gapMs).data;
    const byX = new Map<number, number | null>();
    xs.forEach((x, i) => {
      const mean = means![i];
      byX.set(x, mean == null ? null : (mean / s.maxLevel) * 100);
    });
    return byX;
  });
  const xs = [...new Set(perSensor.flatMap((byX) => [...byX.keys()]))].sort((a, b) => a - b);
  return [xs, ...perSensor.map((byX) => xs.map((x) => (byX.has(x) ? byX.get(x)! : undefined)))] as uPlot.AlignedData;
}

export interface ThresholdPercents {
  warning: number[];
  critical: number[];
}

/** The distinct warning and critical percents of the sensors (usually one of each), ascending. */
export function thresholdPercents(sensors: { warningPct: number; criticalPct: number }[]): ThresholdPercents {
  const distinct = (values: number[]) => [...new Set(values)].sort((a, b) => a - b);
  return { warning: distinct(sensors.map((s) => s.warningPct)), critical: distinct(sensors.map((s) => s.criticalPct)) };
}
