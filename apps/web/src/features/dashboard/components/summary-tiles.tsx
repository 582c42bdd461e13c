import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Activity, CircleCheck, Cpu, Radio, TriangleAlert, type LucideIcon } from 'lucide-react';
import type { Device } from '@agua/shared';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatInteger } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useDashboardStats } from '../hooks/use-dashboard-stats';

interface TileProps {
  label: string;
  value: ReactNode;
  note: ReactNode;
  icon: LucideIcon;
  tone?: 'default' | 'crit' | 'unknown';
  loading?: boolean;
  testId: string;
}

/** A Grafana-like stat panel: label, one big number, one line of context. */
function Tile({ label, value, note, icon: Icon, tone = 'default', loading, testId }: TileProps) {
  return (
    <Card data-testid={testId} data-tone={tone} className={cn('p-4 sm:p-5', tone === 'crit' && 'border-crit/50')}>
      <div className="flex items-start justify-between gap-2">
        <p className="text-xs font-medium text-muted-foreground sm:text-sm">{label}</p>
        <Icon aria-hidden="true" className={cn('size-4 shrink-0', tone === 'crit' ? 'text-crit' : 'text-muted-foreground')} />
      </div>
      {loading ? (
        <Skeleton className="mt-2 h-8 w-16" />
      ) : (
        <p className={cn('mt-1 text-2xl font-semibold tabular-nums sm:text-3xl', tone === 'crit' && 'text-crit-fg', tone === 'unknown' && 'text-muted-foreground')}>{value}</p>
      )}
      <p className="mt-1 truncate text-xs text-muted-foreground">{note}</p>
    </Card>
  );
}

const UNKNOWN = '—';

/** The critical tanks by name, each a link to its panel. */
function CriticalNames({ devices }: { devices: Device[] }) {
  return (
    <>
      {devices.map((d, i) => (
        <span key={d.id}>
          {i > 0 ? ', ' : ''}
          <Link to={`/devices?id=${encodeURIComponent(d.id)}`} className="font-medium text-crit-fg underline-offset-2 hover:underline">
            {d.name}
          </Link>
        </span>
      ))}
    </>
  );
}

/**
 * The seed's four tiles. `known`: the device figures can be vouched for now (the list came, and
 * the live link or a recent poll keeps it current); `live`: live frames are arriving. Whatever
 * cannot be vouched for is '—' in grey and its note says so (docs/operator-console.md: unknown looks unknown —
 * never '0', 'Sin niveles críticos' or 'Operativo').
 */
export function SummaryTiles({ devices, loading, known, live }: { devices: Device[]; loading: boolean; known: boolean; live: boolean }) {
  const stats = useDashboardStats(devices);
  const unknown = !loading && !known;
  const figure = (n: number) => (unknown ? UNKNOWN : formatInteger(n));
  const critical = stats.critical.length;
  return (
    <section aria-label="Resumen" className="grid grid-cols-2 gap-3 sm:gap-4 @4xl:grid-cols-4">
      <Tile
        testId="tile-devices"
        label="Dispositivos Activos"
        icon={Cpu}
        loading={loading}
        tone={unknown ? 'unknown' : 'default'}
        value={
          unknown ? (
            UNKNOWN
          ) : (
            <>
              {formatInteger(stats.online)}
              <span className="text-muted-foreground">/{formatInteger(stats.total)}</span>
            </>
          )
        }
        note={unknown ? 'Sin datos' : 'en línea / total'}
      />
      <Tile
        testId="tile-critical"
        label="Alertas Críticas"
        icon={TriangleAlert}
        loading={loading}
        tone={unknown ? 'unknown' : critical > 0 ? 'crit' : 'default'}
        value={figure(critical)}
        note={unknown ? 'Sin datos' : critical > 0 ? <CriticalNames devices={stats.critical} /> : 'Sin niveles críticos'}
      />
      <Tile
        testId="tile-sensors"
        label="Sensores Activos"
        icon={Radio}
        loading={loading}
        tone={unknown ? 'unknown' : 'default'}
        value={figure(stats.activeSensors)}
        note={unknown ? 'Sin datos' : 'en línea con lectura'}
      />
      <Tile
        testId="tile-system"
        label="Sistema"
        icon={live ? CircleCheck : Activity}
        tone={live ? 'default' : 'unknown'}
        value={live ? 'Operativo' : UNKNOWN}
        note={live ? 'Datos en tiempo real' : 'Sin datos en tiempo real'}
      />
    </section>
  );
}
