import { Clock } from 'lucide-react';
import { levelThresholdsOf, type Device } from '@agua/shared';
import { ReadingStatusBadge } from '@/components/device/reading-status';
import { RelativeTime } from '@/components/device/relative-time';
import { useNow } from '@/hooks/use-now';
import { hasLiveReading, isReadingStale, levelConfig } from '@/lib/device-helpers';
import { formatInteger, formatMeasure, formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { LevelGauge } from './level-gauge';
import { LevelCardChart } from './level-card-chart';

/** The level is the largest thing on the card (DESIGN.md): number, fill, thresholds, age. */
export function LevelSensorBody({ device }: { device: Device }) {
  const { maxLevel, warningPct, criticalPct } = levelThresholdsOf(levelConfig(device) ?? {});
  const now = useNow();
  const live = hasLiveReading(device) && typeof device.reading?.value === 'number';
  const reading = live ? device.reading : null;
  const value = reading && typeof reading.value === 'number' ? reading.value : null;
  const stale = reading ? isReadingStale(device, now) : false;
  const percent = value === null ? null : (value / maxLevel) * 100;

  return (
    // Wraps: the chart takes a row of its own under the number and the gauge.
    <div className="flex flex-wrap gap-x-4 gap-y-3">
      <div className="min-w-0 flex-1">
        <p
          data-testid={`reading-${device.id}`}
          className={cn('text-4xl leading-none font-semibold tracking-tight tabular-nums', (value === null || stale) && 'text-muted-foreground')}
        >
          {value === null ? '—' : formatNumber(value)}
          <span className="ml-1 text-lg font-medium text-muted-foreground">{value === null ? '' : (reading?.unit ?? 'm')}</span>
        </p>
        <div className="mt-2 flex min-h-6 flex-wrap items-center gap-2">
          {reading && !stale ? <ReadingStatusBadge status={reading.status} /> : null}
          {reading && stale ? (
            <span className="inline-flex items-center gap-1 text-xs font-medium text-muted-foreground">
              <Clock aria-hidden="true" className="size-3.5" />
              Dato antiguo
            </span>
          ) : null}
          {!reading ? <span className="text-sm text-muted-foreground">{device.status === 'online' ? 'Esperando lectura…' : 'Sin lectura en vivo'}</span> : null}
        </div>
        <p className="mt-2 min-h-4 text-xs text-muted-foreground">
          {reading ? (
            <>
              Actualizado <RelativeTime value={reading.ts} />
            </>
          ) : null}
        </p>
        <p className="mt-1 text-xs text-muted-foreground tabular-nums">
          {percent === null ? `Capacidad ${formatMeasure(maxLevel, 'm')}` : `${formatInteger(percent)} % de ${formatMeasure(maxLevel, 'm')}`}
        </p>
      </div>
      <LevelGauge
        percent={percent}
        status={reading ? reading.status : null}
        warningPct={warningPct}
        criticalPct={criticalPct}
        stale={stale}
      />
      <LevelCardChart device={device} now={now} stale={stale || !live} className="basis-full" />
    </div>
  );
}
