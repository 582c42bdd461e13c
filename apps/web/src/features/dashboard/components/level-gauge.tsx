import type { ReadingStatus } from '@agua/shared';
import { statusColor } from '@agua/shared';
import { formatInteger } from '@/lib/format';
import { cn } from '@/lib/utils';

/**
 * ISA-101: a normal level is grey, colour means abnormal. Abnormal fills are tinted, not solid,
 * so the dashed threshold marks stay visible through them.
 */
const FILL: Record<ReturnType<typeof statusColor>, string> = {
  green: 'bg-muted-foreground/35',
  yellow: 'bg-warn/55',
  red: 'bg-crit/55',
  gray: 'bg-off',
};

interface LevelGaugeProps {
  /** Fill in percent of maxLevel, or null when there is no value to show. */
  percent: number | null;
  status: ReadingStatus | null;
  warningPct: number;
  criticalPct: number;
  stale: boolean;
}

/**
 * A small tank: how full against maxLevel, with the warning and critical thresholds marked.
 * Normal levels fill in grey; colour appears only past a threshold (ISA-101).
 */
export function LevelGauge({ percent, status, warningPct, criticalPct, stale }: LevelGaugeProps) {
  const fill = percent === null ? 0 : Math.min(Math.max(percent, 0), 100);
  return (
    <div className="flex h-32 shrink-0 items-stretch gap-1.5" aria-hidden="true">
      <div className="relative w-9 overflow-hidden rounded-md border bg-track">
        <div
          className={cn(
            'absolute inset-x-0 bottom-0 transition-[height] duration-500 ease-out',
            status ? FILL[statusColor(status)] : 'bg-off',
            stale && 'bg-off opacity-50',
          )}
          style={{ height: `${fill}%` }}
        />
        <div className="absolute inset-x-0 border-t-2 border-dashed border-warn" style={{ bottom: `${warningPct}%` }} />
        <div className="absolute inset-x-0 border-t-2 border-dashed border-crit" style={{ bottom: `${criticalPct}%` }} />
      </div>
      <div className="relative w-7 text-[10px] leading-none text-muted-foreground tabular-nums">
        <span className="absolute top-0 left-0">100%</span>
        <span className="absolute left-0 translate-y-1/2 text-crit-fg" style={{ bottom: `${criticalPct}%` }}>
          {formatInteger(criticalPct)}%
        </span>
        <span className="absolute left-0 translate-y-1/2 text-warn-fg" style={{ bottom: `${warningPct}%` }}>
          {formatInteger(warningPct)}%
        </span>
        <span className="absolute bottom-0 left-0">0</span>
      </div>
    </div>
  );
}
