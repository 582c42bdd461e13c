import { useCallback, useRef } from 'react';
import type uPlot from 'uplot';
import { GATE_STATE_LABELS, isGateMoving, type GateState } from '@agua/shared';
import { useTheme } from '@/lib/theme';
import { chartFont, readChartColors, withAlpha, type ChartColors } from '@/components/chart/chart-theme';
import { segmentAt, type GateSegment } from '../utils/gate-segments';
import { formatInstant, timeAxisValues } from '@/components/chart/time-format';
import { UPlotChart } from '@/components/chart/uplot-chart';

/** The four kinds of period the timeline tells apart (both moving states look alike). */
export type GateBand = 'abierta' | 'cerrada' | 'moving' | 'falla';

export const GATE_BAND_LABELS: Record<GateBand, string> = {
  abierta: GATE_STATE_LABELS.abierta,
  cerrada: GATE_STATE_LABELS.cerrada,
  moving: 'En movimiento',
  falla: GATE_STATE_LABELS.falla,
};

export function gateBand(state: GateState): GateBand {
  return isGateMoving(state) ? 'moving' : state;
}

/** Band fills: the accent for water flowing, gray for closed, red only for a fault (ISA-101). */
export const GATE_BAND_CSS: Record<GateBand, string> = {
  abierta: 'color-mix(in oklch, var(--primary) 55%, transparent)',
  cerrada: 'color-mix(in oklch, var(--off) 35%, transparent)',
  // Stripes tell a moving gate apart from open or closed without relying on colour.
  moving: 'repeating-linear-gradient(135deg, color-mix(in oklch, var(--primary) 55%, transparent) 0 3px, transparent 3px 6px)',
  falla: 'color-mix(in oklch, var(--crit) 65%, transparent)',
};

/** Diagonal stripes for the moving periods (a canvas pattern of one 8×8 tile). */
function stripes(ctx: CanvasRenderingContext2D, color: string, ratio: number): CanvasPattern | string {
  const size = Math.round(8 * ratio);
  const tile = document.createElement('canvas');
  tile.width = tile.height = size;
  const t = tile.getContext('2d');
  if (!t) return color;
  t.strokeStyle = color;
  t.lineWidth = 2.5 * ratio;
  t.beginPath();
  for (const o of [-size, 0, size]) {
    t.moveTo(o, size);
    t.lineTo(o + size, 0);
  }
  t.stroke();
  return ctx.createPattern(tile, 'repeat') ?? color;
}

/** One fill per kind of period, made once per draw (the stripe pattern is a small canvas). */
function bandFills(c: ChartColors, ctx: CanvasRenderingContext2D, ratio: number): Record<GateBand, CanvasPattern | string> {
  return {
    abierta: withAlpha(c.primary, 0.55),
    cerrada: withAlpha(c.off, 0.35),
    moving: stripes(ctx, withAlpha(c.primary, 0.55), ratio),
    falla: withAlpha(c.crit, 0.65),
  };
}

const BAR_INSET_PX = 6;

function drawSegments(u: uPlot, segments: GateSegment[], c: ChartColors) {
  const { ctx } = u;
  const { left, top, width, height } = u.bbox;
  const ratio = devicePixelRatio || 1;
  const inset = BAR_INSET_PX * ratio;
  const fills = bandFills(c, ctx, ratio);
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top, width, height);
  ctx.clip();
  ctx.font = chartFont(12, ratio);
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'center';
  for (const s of segments) {
    const x0 = u.valToPos(s.startMs / 1000, 'x', true);
    const x1 = u.valToPos(s.endMs / 1000, 'x', true);
    if (x1 < left || x0 > left + width) continue;
    const band = gateBand(s.state);
    ctx.fillStyle = fills[band];
    // At least one device pixel wide: a short movement must still be visible on a 30-day range.
    ctx.fillRect(x0, top + inset, Math.max(ratio, x1 - x0), height - 2 * inset);
    const label = GATE_BAND_LABELS[band];
    const visible0 = Math.max(x0, left);
    const visible1 = Math.min(x1, left + width);
    if (visible1 - visible0 > ctx.measureText(label).width + 12 * ratio) {
      ctx.fillStyle = c.foreground;
      ctx.fillText(label, (visible0 + visible1) / 2, top + height / 2);
    }
  }
  ctx.restore();
}

interface GateTimelinePlotProps {
  data: uPlot.AlignedData;
  segments: GateSegment[];
  xWindow: () => [number, number];
  height: number;
}

/** A gate's open / closed / moving / fault periods as a state timeline. */
export function GateTimelinePlot({ data, segments, xWindow, height }: GateTimelinePlotProps) {
  const theme = useTheme();
  const readoutRef = useRef<HTMLParagraphElement>(null);
  // The hooks read the latest periods without recreating the chart on every live reading.
  const segmentsRef = useRef(segments);
  segmentsRef.current = segments;

  const makeOptions = useCallback(
    ({ width, height: h }: { width: number; height: number }): uPlot.Options => {
      const c = readChartColors(theme);
      const setReadout = (u: uPlot) => {
        const el = readoutRef.current;
        if (!el) return;
        const all = segmentsRef.current;
        const left = u.cursor.left;
        const atCursor = left != null && left >= 0 && u.cursor.idx != null;
        const ms = atCursor ? u.posToVal(left, 'x') * 1000 : null;
        const s = ms === null ? (all[all.length - 1] ?? null) : segmentAt(all, ms);
        if (!s) {
          el.textContent = ms === null ? '' : `${formatInstant(ms)} · sin datos`;
          return;
        }
        const label = GATE_STATE_LABELS[s.state];
        el.textContent = ms === null ? `Estado actual: ${label} · desde ${formatInstant(s.startMs)}` : `${label} · ${formatInstant(ms)} (desde ${formatInstant(s.startMs)})`;
      };
      const axis = { stroke: c.muted, font: chartFont(11), grid: { show: false }, ticks: { stroke: c.grid, width: 1, size: 4 } };
      return {
        width,
        height: h,
        legend: { show: false },
        cursor: { drag: { x: false, y: false, setScale: false }, y: false, points: { show: false } },
        scales: {
          x: { time: true, range: () => xWindow().map((ms) => ms / 1000) as [number, number] },
          y: { range: [0, 1] },
        },
        axes: [
          { ...axis, space: 60, size: 42, values: (_u, splits, _i, _s, incr) => timeAxisValues(splits, incr) },
          { show: false },
        ],
        // One invisible series gives the cursor something to snap to; the bars are drawn below.
        series: [{}, { stroke: 'transparent', width: 0, points: { show: false } }],
        hooks: {
          drawClear: [(u) => drawSegments(u, segmentsRef.current, c)],
          setCursor: [setReadout],
          setData: [setReadout],
          ready: [setReadout],
        },
      };
    },
    [theme, xWindow],
  );

  return (
    <div>
      <p ref={readoutRef} className="h-5 truncate text-xs text-muted-foreground tabular-nums" />
      <UPlotChart makeOptions={makeOptions} data={data} height={height} label="Periodos de la compuerta: abierta, cerrada, en movimiento o en falla" />
    </div>
  );
}
