/** Threshold lines on a uPlot canvas: dashed, across the plot, never colour alone (the caller names them). */
import type uPlot from 'uplot';

export interface ThresholdLine {
  /** A value of the y scale (metres on a level chart, percent on a comparison). */
  value: number;
  color: string;
}

/**
 * Draws each line dashed across the plot (clamped to it) and returns their heights in CSS px from
 * the top of the canvas, which charts expose for tests and which labels placed beside them need.
 */
export function drawThresholdLines(u: uPlot, lines: ThresholdLine[], scale = 'y'): number[] {
  const { ctx } = u;
  const { left, top, width, height } = u.bbox;
  const ratio = devicePixelRatio || 1;
  const ys: number[] = [];
  ctx.save();
  ctx.lineWidth = Math.round(1.5 * ratio);
  ctx.setLineDash([5 * ratio, 4 * ratio]);
  for (const line of lines) {
    const y = Math.round(Math.min(top + height, Math.max(top, u.valToPos(line.value, scale, true)))) + 0.5;
    ctx.strokeStyle = line.color;
    ctx.beginPath();
    ctx.moveTo(left, y);
    ctx.lineTo(left + width, y);
    ctx.stroke();
    ys.push(y / ratio);
  }
  ctx.restore();
  return ys;
}

/**
 * Writes what the canvas drew (tick labels, threshold heights) as data-* attributes on the chart's
 * root: the canvas itself is opaque to assistive tools and to browser tests.
 */
export function exposeDrawing(u: uPlot, attrs: Record<string, string>): void {
  for (const [name, value] of Object.entries(attrs)) u.root.dataset[name] = value;
}
