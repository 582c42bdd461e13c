import type { Reading } from '@agua/shared';
import { cn } from '@/lib/utils';
import type { LevelTrendAnswer } from '../api/get-level-trend';

const WIDTH = 200;
const HEIGHT = 40;

interface Point {
  t: number;
  min: number;
  max: number;
  mean: number;
}

interface SparklineProps {
  /** Downsampled last hour (may be undefined while loading). */
  trend: LevelTrendAnswer | undefined;
  /** Live readings; those newer than the trend are appended. */
  live: Reading[];
  maxLevel: number;
  /** Window [now - windowMs, now]: the line slides left as time passes. */
  now: number;
  windowMs: number;
  /** Points further apart than this are not joined (a silent device shows a gap). */
  gapMs: number;
  className?: string;
}

function collect(trend: SparklineProps['trend'], live: Reading[]): Point[] {
  const points: Point[] = [];
  let endMs = Number.NEGATIVE_INFINITY;
  if (trend) {
    const half = trend.bucketMs / 2;
    for (const b of trend.items) points.push({ t: Date.parse(b.ts) + half, min: b.min, max: b.max, mean: b.mean });
    endMs = Date.parse(trend.to);
  }
  for (const r of live) {
    const t = Date.parse(r.ts);
    if (t >= endMs && typeof r.value === 'number') points.push({ t, min: r.value, max: r.value, mean: r.value });
  }
  return points;
}

/**
 * The last hour of a level (min–max band and mean line) as a small SVG: cheaper than a chart
 * library for 60–160 points, and its box never changes size, so nothing shifts as data arrives.
 */
export function Sparkline({ trend, live, maxLevel, now, windowMs, gapMs, className }: SparklineProps) {
  const from = now - windowMs;
  const x = (t: number) => (((t - from) / windowMs) * WIDTH).toFixed(1);
  const y = (v: number) => (HEIGHT - Math.min(Math.max(v / maxLevel, 0), 1) * (HEIGHT - 2) - 1).toFixed(1);
  const points = collect(trend, live).filter((p) => p.t >= from);
  // History stored more sparsely than the buckets is not a gap: allow three usual spacings.
  const spacing = points.length > 1 ? points.slice(1).map((p, i) => p.t - points[i]!.t).sort((a, b) => a - b)[Math.floor((points.length - 1) / 2)]! : 0;
  const threshold = Math.max(gapMs, 3 * spacing);
  const runs: Point[][] = [];
  for (const p of points) {
    const run = runs[runs.length - 1];
    const last = run?.[run.length - 1];
    if (run && last && p.t - last.t <= threshold) run.push(p);
    else runs.push([p]);
  }
  const drawn = runs.filter((r) => r.length > 1);
  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" className={cn('block h-10 w-full', className)} role="img" aria-label="Tendencia del nivel en la última hora">
      {drawn.map((run, i) => (
        <g key={i}>
          <polygon
            points={[...run.map((p) => `${x(p.t)},${y(p.max)}`), ...[...run].reverse().map((p) => `${x(p.t)},${y(p.min)}`)].join(' ')}
            fill="var(--color-primary)"
            opacity="0.15"
          />
          <polyline
            points={run.map((p) => `${x(p.t)},${y(p.mean)}`).join(' ')}
            fill="none"
            stroke="var(--color-primary)"
            strokeWidth="1.5"
            vectorEffect="non-scaling-stroke"
            strokeLinejoin="round"
          />
        </g>
      ))}
    </svg>
  );
}
