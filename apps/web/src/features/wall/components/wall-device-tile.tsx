import { Clock, MapPin } from 'lucide-react';
import type { Device } from '@agua/shared';
import { ConnectionBadge } from '@/components/device/connection-badge';
import { GateStateView } from '@/components/device/gate-state';
import { ReadingStatusBadge } from '@/components/device/reading-status';
import { RelativeTime } from '@/components/device/relative-time';
import { DeviceAlarms } from '@/features/alarms/components/device-alarms';
import { LevelGauge } from '@/features/dashboard/components/level-gauge';
import { useLevelFigure } from '@/features/dashboard/hooks/use-level-figure';
import { gateState } from '@/lib/device-helpers';
import { formatInteger, formatMeasure, formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';

function LevelFigureView({ device }: { device: Device }) {
  const f = useLevelFigure(device);
  return (
    <div className="flex items-end justify-between gap-4">
      <div className="min-w-0">
        <p data-testid={`wall-reading-${device.id}`} className={cn('text-6xl leading-none font-semibold tracking-tight tabular-nums', f.value === null && 'text-muted-foreground')}>
          {f.value === null ? '—' : formatNumber(f.value)}
          {f.value === null ? null : <span className="ml-2 text-2xl font-medium text-muted-foreground">{f.unit}</span>}
        </p>
        <div className="mt-3 flex min-h-7 flex-wrap items-center gap-2 text-base">
          {f.status ? <ReadingStatusBadge status={f.status} className="text-sm" /> : null}
          {f.stale && f.lastValue !== null && f.ts ? (
            <span className="inline-flex items-center gap-1 text-sm text-muted-foreground">
              <Clock aria-hidden="true" className="size-4" />
              Último valor {formatMeasure(f.lastValue, f.unit)}, <RelativeTime value={f.ts} />
            </span>
          ) : null}
          {f.lastValue === null ? <span className="text-sm text-muted-foreground">Sin lectura en vivo</span> : null}
        </div>
        <p className="mt-2 text-sm text-muted-foreground tabular-nums">
          {f.percent === null ? `Capacidad ${formatMeasure(f.maxLevel, 'm')}` : `${formatInteger(f.percent)} % de ${formatMeasure(f.maxLevel, 'm')}`}
        </p>
      </div>
      <LevelGauge percent={f.percent} status={f.status} warningPct={f.warningPct} criticalPct={f.criticalPct} stale={f.stale} />
    </div>
  );
}

/** One device on the control-room wall: readable from across the room; its alarms first. */
export function WallDeviceTile({ device }: { device: Device }) {
  return (
    <article data-testid={`wall-device-${device.id}`} aria-labelledby={`wall-title-${device.id}`} className="flex min-w-0 flex-col gap-3 rounded-xl border bg-card p-5">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id={`wall-title-${device.id}`} className="text-xl leading-snug font-semibold break-words">
            {device.name}
          </h2>
          <p className="mt-0.5 flex items-start gap-1 text-sm text-muted-foreground">
            <MapPin aria-hidden="true" className="mt-0.5 size-3.5 shrink-0" />
            <span className="min-w-0 break-words">{device.location}</span>
          </p>
        </div>
        <ConnectionBadge device={device} />
      </div>
      <div className="empty:hidden">
        <DeviceAlarms deviceId={device.id} />
      </div>
      {device.type === 'level_sensor' ? (
        <LevelFigureView device={device} />
      ) : (
        <div className={cn(device.status !== 'online' && 'text-muted-foreground')}>
          <p className="text-sm text-muted-foreground">{device.status === 'online' ? 'Estado' : 'Último estado conocido'}</p>
          <GateStateView state={gateState(device)} size="lg" className="mt-1 text-4xl [&>svg]:size-10" />
        </div>
      )}
    </article>
  );
}
