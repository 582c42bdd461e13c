import type { ReactNode } from 'react';
import { Activity, CircleCheck, Cpu, Radio, TriangleAlert, type LucideIcon } from 'lucide-react';
import type { Device } from '@agua/shared';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatInteger } from '@/lib/format';
import { useLiveStatus } from '@/lib/live-socket';
import { cn } from '@/lib/utils';
import { useDashboardStats } from '../hooks/use-dashboard-stats';

interface TileProps {
  label: string;
  value: ReactNode;
  note: ReactNode;
  icon: LucideIcon;
  tone?: 'default' | 'crit';
  loading?: boolean;
}

/** A Grafana-like stat panel: label, one big number, one line of context. */
function Tile({ label, value, note, icon: Icon, tone = 'default', loading }: TileProps) {
  return (
    <Card className={cn('p-4 sm:p-5', tone === 'crit' && 'border-crit/50')}>
      <div className="flex items-start justify-between gap-2">
        <p className="text-xs font-medium text-muted-foreground sm:text-sm">{label}</p>
        <Icon aria-hidden="true" className={cn('size-4 shrink-0', tone === 'crit' ? 'text-crit' : 'text-muted-foreground')} />
      </div>
      {loading ? (
        <Skeleton className="mt-2 h-8 w-16" />
      ) : (
        <p className={cn('mt-1 text-2xl font-semibold tabular-nums sm:text-3xl', tone === 'crit' && 'text-crit-fg')}>{value}</p>
      )}
      <p className="mt-1 truncate text-xs text-muted-foreground">{note}</p>
    </Card>
  );
}

export function SummaryTiles({ devices, loading }: { devices: Device[]; loading: boolean }) {
  const stats = useDashboardStats(devices);
  const { state } = useLiveStatus();
  return (
    <section aria-label="Resumen" className="grid grid-cols-2 gap-3 sm:gap-4 @4xl:grid-cols-4">
      <Tile
        label="Dispositivos Activos"
        icon={Cpu}
        loading={loading}
        value={
          <>
            {formatInteger(stats.online)}
            <span className="text-muted-foreground">/{formatInteger(stats.total)}</span>
          </>
        }
        note="en línea / total"
      />
      <Tile
        label="Alertas Críticas"
        icon={TriangleAlert}
        loading={loading}
        tone={stats.criticalAlerts > 0 ? 'crit' : 'default'}
        value={formatInteger(stats.criticalAlerts)}
        note={stats.criticalAlerts > 0 ? 'Nivel crítico: requiere atención' : 'Sin niveles críticos'}
      />
      <Tile label="Sensores Activos" icon={Radio} loading={loading} value={formatInteger(stats.activeSensors)} note="en línea con lectura" />
      <Tile
        label="Sistema"
        icon={state === 'open' ? CircleCheck : Activity}
        value="Operativo"
        note={state === 'open' ? 'Datos en tiempo real' : 'Sin tiempo real'}
      />
    </section>
  );
}
