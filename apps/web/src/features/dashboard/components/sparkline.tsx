import type { Reading } from '@agua/shared';
import { cn } from '@/lib/utils';

const WIDTH = 200;
const HEIGHT = 40;

/** Recent level trend (last LIVE_HISTORY_PER_SENSOR readings) scaled to 0..maxLevel. */
export function Sparkline({ readings, maxLevel, className }: { readings: Reading[]; maxLevel: number; className?: string }) {
  const values = readings.filter((r): r is Reading & { value: number } => typeof r.value === 'number');
  if (values.length < 2) return <div className={cn('h-10', className)} aria-hidden="true" />;
  const first = Date.parse(values[0]!.ts);
  const span = Math.max(1, Date.parse(values[values.length - 1]!.ts) - first);
  const points = values
    .map((r) => {
      const x = ((Date.parse(r.ts) - first) / span) * WIDTH;
      const clamped = Math.min(Math.max(r.value / maxLevel, 0), 1);
      const y = HEIGHT - clamped * (HEIGHT - 2) - 1;
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" className={cn('h-10 w-full', className)} role="img" aria-label="Tendencia reciente del nivel">
      <polyline points={`0,${HEIGHT} ${points} ${WIDTH},${HEIGHT}`} fill="var(--color-primary)" opacity="0.08" stroke="none" />
      <polyline points={points} fill="none" stroke="var(--color-primary)" strokeWidth="1.5" vectorEffect="non-scaling-stroke" strokeLinejoin="round" />
    </svg>
  );
}
