import { useCallback, useRef } from 'react';
import type uPlot from 'uplot';
import { formatMeasure } from '@/lib/format';
import { useTheme } from '@/lib/theme';
import { metreAxisValues } from '@/components/chart/axis-values';
import { chartFont, readChartColors, withAlpha, type ChartColors } from '@/components/chart/chart-theme';
import { drawThresholdLines } from '@/components/chart/threshold-lines';
import { formatInstant, timeAxisValues } from '@/components/chart/time-format';
import { readoutIndex } from '@/components/chart/readout-index';
import { UPlotChart } from '@/components/chart/uplot-chart';

export interface LevelThresholdLines {
  maxLevel: number;
  warningPct: number;
  criticalPct: number;
}

interface LevelTrendPlotProps {
  data: uPlot.AlignedData;
  thresholds: LevelThresholdLines;
  /** The x window in ms, asked for at every redraw (live ranges slide with the clock). */
  xWindow: () => [number, number];
  height: number;
}

function thresholdGeometry(u: uPlot, t: LevelThresholdLines) {
  const { top, height } = u.bbox;
  const clampY = (v: number) => Math.min(top + height, Math.max(top, u.valToPos(v, 'y', true)));
  return { yWarn: clampY((t.warningPct / 100) * t.maxLevel), yCrit: clampY((t.criticalPct / 100) * t.maxLevel) };
}

/** Warning and critical zones as tinted bands with dashed lines, under the data. */
function drawThresholdBands(u: uPlot, t: LevelThresholdLines, c: ChartColors) {
  const { ctx } = u;
  const { left, top, width } = u.bbox;
  const { yWarn, yCrit } = thresholdGeometry(u, t);
  ctx.save();
  ctx.fillStyle = withAlpha(c.warn, 0.1);
  ctx.fillRect(left, yCrit, width, yWarn - yCrit);
  ctx.fillStyle = withAlpha(c.crit, 0.1);
  ctx.fillRect(left, top, width, yCrit - top);
  ctx.restore();
  drawThresholdLines(u, [
    { value: (t.warningPct / 100) * t.maxLevel, color: c.warn },
    { value: (t.criticalPct / 100) * t.maxLevel, color: c.crit },
  ]);
}

/** The thresholds' words, over the data on a card-coloured tag so a curve never hides them. */
function drawThresholdLabels(u: uPlot, t: LevelThresholdLines, c: ChartColors) {
  const { ctx } = u;
  const { left } = u.bbox;
  const { yWarn, yCrit } = thresholdGeometry(u, t);
  const ratio = devicePixelRatio || 1;
  const pad = 3 * ratio;
  const h = 15 * ratio;
  ctx.save();
  ctx.font = chartFont(11, ratio);
  // uPlot leaves its own text alignment on the context: set ours.
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  for (const [y, text, label] of [
    [yWarn, c.warnText, `Advertencia ${t.warningPct} %`],
    [yCrit, c.critText, `Crítico ${t.criticalPct} %`],
  ] as const) {
    const w = ctx.measureText(label).width + 2 * pad;
    const x = left + 4 * ratio;
    const yTag = y - h - ratio;
    ctx.fillStyle = withAlpha(c.card, 0.85);
    ctx.fillRect(x, yTag, w, h);
    ctx.fillStyle = text;
    ctx.fillText(label, x + pad, yTag + h / 2);
  }
  ctx.restore();
}

/** The value under the cursor, or the newest one when the cursor is away. */
function describe(u: uPlot, idx: number | null | undefined): string {
  const [xs, mins, maxs, means] = u.data as [number[], (number | null)[], (number | null)[], (number | null)[]];
  const i = readoutIndex(means, idx);
  if (i === null) return '';
  const mean = means[i];
  const when = formatInstant((xs[i] ?? 0) * 1000);
  if (mean == null) return `${when} · sin datos`;
  const min = mins[i];
  const max = maxs[i];
  const spread = min != null && max != null && max - min > 0.005 ? ` (mín ${formatMeasure(min, 'm')} – máx ${formatMeasure(max, 'm')})` : '';
  return `${idx == null ? 'Último: ' : ''}${formatMeasure(mean, 'm')}${spread} · ${when}`;
}

/** Level over time: min–max band, mean line, and the warning/critical thresholds. */
export function LevelTrendPlot({ data, thresholds, xWindow, height }: LevelTrendPlotProps) {
  const theme = useTheme();
  const readoutRef = useRef<HTMLParagraphElement>(null);
  const { maxLevel, warningPct, criticalPct } = thresholds;

  const makeOptions = useCallback(
    ({ width, height: h }: { width: number; height: number }): uPlot.Options => {
      const c = readChartColors(theme);
      const t = { maxLevel, warningPct, criticalPct };
      const setReadout = (u: uPlot) => {
        if (readoutRef.current) readoutRef.current.textContent = describe(u, u.cursor.idx);
      };
      const axis = { stroke: c.muted, font: chartFont(11), grid: { stroke: withAlpha(c.grid, 0.9), width: 1 }, ticks: { stroke: c.grid, width: 1, size: 4 } };
      return {
        width,
        height: h,
        legend: { show: false },
        cursor: { drag: { x: false, y: false, setScale: false }, y: false, points: { size: 7 } },
        scales: {
          x: { time: true, range: () => xWindow().map((ms) => ms / 1000) as [number, number] },
          y: {
            range: (_u, min, max) => [Math.min(0, min ?? 0), Math.max(maxLevel, (max ?? 0) * 1.02)],
          },
        },
        axes: [
          { ...axis, space: 60, size: 42, values: (_u, splits, _i, _s, incr) => timeAxisValues(splits, incr) },
          { ...axis, size: 46, values: (_u, splits) => metreAxisValues(splits) },
        ],
        series: [
          {},
          { label: 'Mínimo', stroke: 'transparent', width: 0, points: { show: false } },
          { label: 'Máximo', stroke: 'transparent', width: 0, points: { show: false } },
          // A normal level is drawn in a neutral tone: colour is kept for the thresholds (ISA-101).
          // Default points: uPlot shows them only where data is sparse, so a lone reading stays visible.
          { label: 'Media', stroke: c.foreground, width: 2, points: { size: 4, fill: c.foreground } },
        ],
        bands: [{ series: [2, 1], fill: withAlpha(c.foreground, 0.15) }],
        hooks: {
          drawClear: [(u) => drawThresholdBands(u, t, c)],
          draw: [(u) => drawThresholdLabels(u, t, c)],
          setCursor: [setReadout],
          setData: [setReadout],
          ready: [setReadout],
        },
      };
    },
    [theme, maxLevel, warningPct, criticalPct, xWindow],
  );

  return (
    <div>
      <p ref={readoutRef} className="h-5 truncate text-xs text-muted-foreground tabular-nums" />
      <UPlotChart makeOptions={makeOptions} data={data} height={height} label="Nivel a lo largo del tiempo con umbrales de advertencia y crítico" />
    </div>
  );
}
