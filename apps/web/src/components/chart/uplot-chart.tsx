import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { cn } from '@/lib/utils';

export type MakeChartOptions = (size: { width: number; height: number }) => uPlot.Options;

interface UPlotChartProps {
  /** Builds the options; a new function (theme, thresholds, range changed) recreates the chart. */
  makeOptions: MakeChartOptions;
  data: uPlot.AlignedData;
  height: number;
  className?: string;
  label: string;
}

/**
 * uPlot inside React: one instance per options, data pushed with setData, width from a
 * ResizeObserver. The box has a fixed height, so nothing around it moves while it draws.
 */
export function UPlotChart({ makeOptions, data, height, className, label }: UPlotChartProps) {
  const boxRef = useRef<HTMLDivElement>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  const plotRef = useRef<uPlot | null>(null);
  const dataRef = useRef(data);

  useEffect(() => {
    dataRef.current = data;
    plotRef.current?.setData(data);
  }, [data]);

  useEffect(() => {
    const box = boxRef.current;
    const host = hostRef.current;
    if (!box || !host) return;
    let plot: uPlot | null = null;
    const create = (width: number) => {
      plot = new uPlot(makeOptions({ width, height }), dataRef.current, host);
      plotRef.current = plot;
    };
    if (box.clientWidth > 0) create(box.clientWidth);
    const observer = new ResizeObserver((entries) => {
      const width = Math.floor(entries[0]?.contentRect.width ?? 0);
      if (width <= 0) return;
      if (!plot) create(width);
      else if (plot.width !== width) plot.setSize({ width, height });
    });
    observer.observe(box);
    return () => {
      observer.disconnect();
      plot?.destroy();
      if (plotRef.current === plot) plotRef.current = null;
    };
  }, [makeOptions, height]);

  // The canvas sits in an absolutely placed host: its pixel width must not feed back into the
  // width of the layout around it (a grid column would otherwise never shrink on a phone).
  return (
    <div ref={boxRef} role="img" aria-label={label} className={cn('relative w-full overflow-hidden', className)} style={{ height }}>
      <div ref={hostRef} className="absolute inset-0" />
    </div>
  );
}
