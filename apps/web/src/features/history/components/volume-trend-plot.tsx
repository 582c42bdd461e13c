import { useCallback, useRef } from 'react';
import type uPlot from 'uplot';
import { useTheme } from '@/lib/theme';
import { formatVolume } from '@/lib/water-format';
import { cubicMetreAxisValues } from '@/components/chart/axis-values';
import { chartFont, readChartColors, withAlpha, type ChartColors } from '@/components/chart/chart-theme';
import { drawThresholdLines, exposeDrawing } from '@/components/chart/threshold-lines';
import { formatInstant, timeAxisValues } from '@/components/chart/time-format';
import { readoutIndex } from '@/components/chart/readout-index';
import { UPlotChart } from '@/components/chart/uplot-chart';

/** The volume the fill is measured against: at the crest ('Vertedero') or at maxLevel ('Volumen útil'). */
export interface VolumeReference {
  volumeM3: number;
  label: string;
}

interface VolumeTrendPlotProps {
  data: uPlot.AlignedData;
  reference: VolumeReference | null;
  /** The x window in ms, asked for at every redraw (live ranges slide with the clock). */
  xWindow: () => [number, number];
  height: number;
}

/** The reference as a dashed neutral line with its name on a card-coloured tag (not an alarm colour). */
function drawReference(u: uPlot, reference: VolumeReference, c: ChartColors) {
  const [y] = drawThresholdLines(u, [{ value: reference.volumeM3, color: c.muted }]);
  exposeDrawing(u, { referenceY: String(Math.round(y ?? 0)) });
  const { ctx } = u;
  const ratio = devicePixelRatio || 1;
  const pad = 3 * ratio;
  const h = 15 * ratio;
  const label = `${reference.label} ${formatVolume(reference.volumeM3)}`;
  ctx.save();
  ctx.font = chartFont(11, ratio);
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  const w = ctx.measureText(label).width + 2 * pad;
  const x = u.bbox.left + 4 * ratio;
  const yTag = Math.max(u.bbox.top, (y ?? 0) * ratio - h - ratio);
  ctx.fillStyle = withAlpha(c.card, 0.85);
  ctx.fillRect(x, yTag, w, h);
  ctx.fillStyle = c.muted;
  ctx.fillText(label, x + pad, yTag + h / 2);
  ctx.restore();
}

/** The volume under the cursor, or the newest one when the cursor is away. */
function describe(u: uPlot, idx: number | null | undefined): string {
  const [xs, vs] = u.data as [number[], (number | null)[]];
  const i = readoutIndex(vs, idx);
  if (i === null) return '';
  const v = vs[i];
  const when = formatInstant((xs[i] ?? 0) * 1000);
  if (v == null) return `${when} · sin datos`;
  return `${idx == null ? 'Último: ' : ''}${formatVolume(v)} · ${when}`;
}

/** Volume over time (bucket means, the current volume at the end) against the reference volume. */
export function VolumeTrendPlot({ data, reference, xWindow, height }: VolumeTrendPlotProps) {
  const theme = useTheme();
  const readoutRef = useRef<HTMLParagraphElement>(null);
  const referenceM3 = reference?.volumeM3 ?? null;
  const referenceLabel = reference?.label ?? '';

  const makeOptions = useCallback(
    ({ width, height: h }: { width: number; height: number }): uPlot.Options => {
      const c = readChartColors(theme);
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
          y: { range: (_u, min, max) => [Math.min(0, min ?? 0), Math.max(referenceM3 ?? 0, max ?? 0) * 1.05 || 1] },
        },
        axes: [
          { ...axis, space: 60, size: 42, values: (_u, splits, _i, _s, incr) => timeAxisValues(splits, incr) },
          { ...axis, size: 60, values: (_u, splits) => cubicMetreAxisValues(splits) },
        ],
        series: [
          {},
          // Neutral like the level: colour is kept for alarms (ISA-101). A light fill reads as water.
          { label: 'Volumen', stroke: c.foreground, width: 2, fill: withAlpha(c.foreground, 0.08), points: { size: 4, fill: c.foreground } },
        ],
        hooks: {
          // Over the curve's light fill, so that the line and its name always show.
          draw: referenceM3 === null ? [] : [(u) => drawReference(u, { volumeM3: referenceM3, label: referenceLabel }, c)],
          setCursor: [setReadout],
          setData: [setReadout],
          ready: [setReadout],
        },
      };
    },
    [theme, referenceM3, referenceLabel, xWindow],
  );

  return (
    <div data-testid="volume-trend">
      <p ref={readoutRef} className="h-5 truncate text-xs text-muted-foreground tabular-nums" />
      <UPlotChart makeOptions={makeOptions} data={data} height={height} label="Volumen a lo largo del tiempo frente al volumen de referencia" />
    </div>
  );
}
