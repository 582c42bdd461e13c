import { useCallback, useMemo } from 'react';
import type uPlot from 'uplot';
import { levelThresholdsOf, type Device } from '@agua/shared';
import { metreAxisValues } from '@/components/chart/axis-values';
import { chartFont, readChartColors, withAlpha } from '@/components/chart/chart-theme';
import { buildLevelColumns, columnsSince } from '@/components/chart/level-series';
import { drawThresholdLines, exposeDrawing } from '@/components/chart/threshold-lines';
import { clockAxisValues } from '@/components/chart/time-format';
import { UPlotChart } from '@/components/chart/uplot-chart';
import { levelConfig, offlineAfterMs } from '@/lib/device-helpers';
import { formatMeasure } from '@/lib/format';
import { useLiveHistory } from '@/lib/live-socket';
import { useTheme } from '@/lib/theme';
import { cn } from '@/lib/utils';
import { LAST_HOUR_MS, useLevelTrend } from '../api/get-level-trend';

/** Canvas height: the time axis and ~80 px of plot, enough to read a trend on a card. */
const HEIGHT = 104;
// The window slides in steps even while no reading arrives (a silent device's line moves left).
const SLIDE_MS = 5000;

/** The window every card shows: the last hour up to now. */
function lastHour(): [number, number] {
  const now = Date.now();
  return [(now - LAST_HOUR_MS) / 1000, now / 1000];
}

/** Points drawn (gap markers and undefined not counted). */
function countValues(column: uPlot.AlignedData[number] | undefined): number {
  let n = 0;
  for (const v of column ?? []) if (v != null) n++;
  return n;
}

/** What the chart shows, in words: the canvas is opaque to screen readers. */
function describeChart(maxLevel: number, warningPct: number, criticalPct: number, stale: boolean): string {
  const at = (pct: number) => `${formatMeasure((pct / 100) * maxLevel, 'm')} (${pct} %)`;
  return (
    `Nivel en la última hora, en hora local; escala de 0 a ${formatMeasure(maxLevel, 'm')}; ` +
    `advertencia en ${at(warningPct)}, crítico en ${at(criticalPct)}` +
    (stale ? '; sin datos recientes' : '')
  );
}

/**
 * A level card's last hour: stored one-minute buckets continued by the live readings, the level
 * axis from 0 to the tank's maxLevel and its warning and critical levels as dashed lines. One
 * uPlot per card, created once and fed with setData; the box has a fixed height (no layout shift).
 */
export function LevelCardChart({ device, now, stale, className }: { device: Device; now: number; stale: boolean; className?: string }) {
  const { maxLevel, warningPct, criticalPct } = levelThresholdsOf(levelConfig(device) ?? {});
  const theme = useTheme();
  const trend = useLevelTrend(device.id);
  const live = useLiveHistory(device.id);
  const gapMs = Math.max(2.5 * (trend.data?.bucketMs ?? 0), offlineAfterMs(device));
  const columns = useMemo(() => buildLevelColumns(trend.data, live, gapMs), [trend.data, live, gapMs]);
  const windowStartS = (Math.floor(now / SLIDE_MS) * SLIDE_MS - LAST_HOUR_MS) / 1000;
  const data = useMemo(() => columnsSince(columns.data, windowStartS), [columns, windowStartS]);

  const makeOptions = useCallback(
    ({ width, height }: { width: number; height: number }): uPlot.Options => {
      const c = readChartColors(theme);
      const warn = (warningPct / 100) * maxLevel;
      const crit = (criticalPct / 100) * maxLevel;
      let xTicks: string[] = [];
      let yTicks: string[] = [];
      const axis = { stroke: c.muted, font: chartFont(10), grid: { stroke: withAlpha(c.grid, 0.9), width: 1 }, ticks: { show: false } };
      return {
        width,
        height,
        padding: [6, 8, 0, 0],
        legend: { show: false },
        cursor: { show: false },
        scales: {
          x: { time: true, range: lastHour },
          y: { range: (_u, _min, max) => [0, Math.max(maxLevel, (max ?? 0) * 1.02)] },
        },
        axes: [
          { ...axis, size: 18, gap: 2, space: 56, values: (_u, splits) => (xTicks = clockAxisValues(splits)) },
          { ...axis, size: 38, gap: 3, space: 24, values: (_u, splits) => (yTicks = metreAxisValues(splits)) },
        ],
        series: [
          {},
          { stroke: 'transparent', width: 0, points: { show: false } },
          { stroke: 'transparent', width: 0, points: { show: false } },
          // Neutral: a normal level carries no colour; the thresholds do (ISA-101).
          { stroke: c.foreground, width: 1.5, points: { size: 3, fill: c.foreground } },
        ],
        bands: [{ series: [2, 1], fill: withAlpha(c.foreground, 0.12) }],
        hooks: {
          drawClear: [
            (u) => {
              const [warnY, critY] = drawThresholdLines(u, [
                { value: warn, color: c.warn },
                { value: crit, color: c.crit },
              ]);
              exposeDrawing(u, { warnY: String(warnY), critY: String(critY) });
            },
          ],
          draw: [(u) => exposeDrawing(u, { xTicks: xTicks.join(' | '), yTicks: yTicks.join(' | '), points: String(countValues(u.data[3])) })],
        },
      };
    },
    [theme, maxLevel, warningPct, criticalPct],
  );

  return (
    <div data-testid={`level-chart-${device.id}`} data-stale={stale} className={cn('transition-opacity', stale && 'opacity-45 grayscale', className)}>
      <UPlotChart makeOptions={makeOptions} data={data} height={HEIGHT} label={describeChart(maxLevel, warningPct, criticalPct, stale)} />
    </div>
  );
}
