import type { ReactNode } from 'react';
import { ArrowDownToLine, ArrowUpToLine, Cylinder, Minus, TrendingDown, TrendingUp } from 'lucide-react';
import type { Device } from '@agua/shared';
import { useNow } from '@/hooks/use-now';
import { offlineAfterMs } from '@/lib/device-helpers';
import { cn } from '@/lib/utils';
import { areFiguresStale, waterFigureTexts } from '@/lib/water-format';

const FLOW_ICONS = { in: TrendingUp, out: TrendingDown, stable: Minus } as const;

function Line({ testId, icon, children }: { testId: string; icon?: ReactNode; children?: ReactNode }) {
  return (
    <p data-testid={testId} className="flex min-h-5 min-w-0 items-center gap-1.5 text-sm">
      {children ? (
        <>
          {icon}
          <span className="min-w-0">{children}</span>
        </>
      ) : null}
    </p>
  );
}

/**
 * A level sensor's water now (docs/water.md): volume and fill, net flow, and the time to
 * overflow or to empty. Nothing at all without figures (no geometry, no reading); with a reading
 * older than the offline timeout the volume reads '—' and no flow nor forecast is shown, whatever
 * the last frame said: the screen never makes a forecast up.
 */
export function WaterFigures({ device, className }: { device: Device; className?: string }) {
  const now = useNow();
  const a = device.type === 'level_sensor' ? device.analytics : null;
  const stale = a ? areFiguresStale(a, device.status === 'online', offlineAfterMs(device), now) : true;
  const t = waterFigureTexts(a, stale);
  if (!t) return null;
  const FlowIcon = t.direction ? FLOW_ICONS[t.direction] : null;
  const ForecastIcon = t.forecast?.kind === 'empty' ? ArrowDownToLine : ArrowUpToLine;
  return (
    <div data-testid={`water-${device.id}`} className={cn('grid gap-0.5 rounded-lg border bg-muted/40 px-3 py-2', className)}>
      <p className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
        <span className="inline-flex items-center gap-1.5 self-center text-xs text-muted-foreground">
          <Cylinder aria-hidden="true" className="size-3.5" />
          Volumen
        </span>
        <span data-testid={`water-volume-${device.id}`} className={cn('text-base font-semibold whitespace-nowrap tabular-nums', t.volume === null && 'text-muted-foreground')}>
          {t.volume ?? '—'}
        </span>
        {t.fill !== null ? (
          <span data-testid={`water-fill-${device.id}`} className="text-sm whitespace-nowrap text-muted-foreground tabular-nums">
            {t.fill} lleno
          </span>
        ) : null}
        {t.extrapolated ? (
          <span className="text-xs whitespace-nowrap text-muted-foreground" title="El nivel está fuera de la forma descrita: el volumen es el de su extremo.">
            (fuera de rango)
          </span>
        ) : null}
      </p>
      {/* Without a flow (too few readings yet, stale data) there is neither line. With one, the
          forecast's line stays even when empty ('Estable'), so the card does not jump as it comes and goes. */}
      {t.flow ? (
        <>
          <Line testId={`water-flow-${device.id}`} icon={FlowIcon ? <FlowIcon aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" /> : null}>
            <span className="tabular-nums">{t.flow}</span>
          </Line>
          <Line testId={`water-forecast-${device.id}`} icon={<ForecastIcon aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />}>
            {t.forecast ? <span className="font-medium tabular-nums">{t.forecast.text}</span> : null}
          </Line>
        </>
      ) : null}
    </div>
  );
}
