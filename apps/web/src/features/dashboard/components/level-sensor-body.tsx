import { Clock } from 'lucide-react';
import type { Device } from '@agua/shared';
import { ReadingStatusBadge } from '@/components/device/reading-status';
import { RelativeTime } from '@/components/device/relative-time';
import { WaterFigures } from '@/components/device/water-figures';
import { useNow } from '@/hooks/use-now';
import { formatInteger, formatMeasure, formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useLevelFigure } from '../hooks/use-level-figure';
import { LevelCardChart } from './level-card-chart';
import { LevelGauge } from './level-gauge';

/** The level is the largest thing on the card (docs/operator-console.md): number, fill, thresholds, age, the water it amounts to, the last hour. */
export function LevelSensorBody({ device }: { device: Device }) {
  const now = useNow();
  const f = useLevelFigure(device);
  return (
    // Wraps: the chart takes a row of its own under the number and the gauge.
    <div className="flex flex-wrap gap-x-4 gap-y-3">
      <div className="min-w-0 flex-1">
        <p data-testid={`reading-${device.id}`} className={cn('text-4xl leading-none font-semibold tracking-tight tabular-nums', f.value === null && 'text-muted-foreground')}>
          {/* A value older than the offline timeout is not shown as the level: '—', and the last value below (docs/operator-console.md). */}
          {f.value === null ? '—' : formatNumber(f.value)}
          <span className="ml-1 text-lg font-medium text-muted-foreground">{f.value === null ? '' : f.unit}</span>
        </p>
        <div className="mt-2 flex min-h-6 flex-wrap items-center gap-2">
          {f.status ? <ReadingStatusBadge status={f.status} /> : null}
          {f.stale ? (
            <span className="inline-flex items-center gap-1 text-xs font-medium text-muted-foreground">
              <Clock aria-hidden="true" className="size-3.5" />
              Dato antiguo
            </span>
          ) : null}
          {f.lastValue === null ? <span className="text-sm text-muted-foreground">{device.status === 'online' ? 'Esperando lectura…' : 'Sin lectura en vivo'}</span> : null}
        </div>
        <p className="mt-2 min-h-4 text-xs text-muted-foreground">
          {f.ts && f.stale && f.lastValue !== null ? (
            <>
              Último valor {formatMeasure(f.lastValue, f.unit)}, <RelativeTime value={f.ts} />
            </>
          ) : f.ts ? (
            <>
              Actualizado <RelativeTime value={f.ts} />
            </>
          ) : null}
        </p>
        <p className="mt-1 text-xs text-muted-foreground tabular-nums">
          {f.percent === null ? `Capacidad ${formatMeasure(f.maxLevel, 'm')}` : `${formatInteger(f.percent)} % de ${formatMeasure(f.maxLevel, 'm')}`}
        </p>
      </div>
      <LevelGauge percent={f.percent} status={f.status} warningPct={f.warningPct} criticalPct={f.criticalPct} stale={f.stale} />
      <WaterFigures device={device} className="basis-full" />
      <LevelCardChart device={device} now={now} stale={f.stale || f.lastValue === null} className="basis-full" />
    </div>
  );
}
