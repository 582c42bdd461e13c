import type { ReactNode } from 'react';
import type { OverflowStats } from '@agua/shared';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { LoadError } from '@/components/load-error';
import { formatInteger } from '@/lib/format';
import { formatDuration } from '@/lib/water-format';
import { cn } from '@/lib/utils';
import { totalVolumeText } from '../utils/overflow-texts';

/** What a stats query gives the tiles: its data, or why there is none yet. */
export interface StatsState {
  data: OverflowStats | undefined;
  isPending: boolean;
  error: Error | null;
  refetch: () => void;
}

const UNKNOWN = '—';

function Figure({ label, value, note, testId, loading, big }: { label: string; value: string; note?: ReactNode; testId: string; loading: boolean; big?: boolean }) {
  return (
    <div data-testid={testId} className="grid content-start gap-1">
      <p className="text-xs font-medium text-muted-foreground sm:text-sm">{label}</p>
      {loading ? (
        <Skeleton className={cn('h-8 w-20', big && 'h-12')} />
      ) : (
        <p data-testid={`${testId}-value`} className={cn('font-semibold tabular-nums', big ? 'text-4xl sm:text-5xl' : 'text-2xl', value === UNKNOWN && 'text-muted-foreground')}>{value}</p>
      )}
      {note ? <p className="text-xs text-muted-foreground">{note}</p> : null}
    </div>
  );
}

/**
 * The year's 12/24 count, large (what the regulator asks for), and the counts of the filter. A
 * count that did not load is '—' with the error, never a reassuring 0.
 */
export function OverflowFigures({ year, yearStats, stats, scope }: { year: number; yearStats: StatsState; stats: StatsState; scope: string }) {
  const failed = [yearStats, stats].find((s) => s.error && !s.data);
  const figure = (s: StatsState, pick: (d: OverflowStats) => string) => (s.data ? pick(s.data) : UNKNOWN);
  return (
    <section aria-label="Recuento" className="grid gap-3">
      <div className="grid gap-3 @3xl:grid-cols-[minmax(0,1fr)_minmax(0,2.2fr)]">
        <Card className="grid content-start gap-2 border-primary/30 p-4 sm:p-5">
          <Figure
            testId="overflow-year-1224"
            big
            label={`Vertidos 12/24 en ${year}`}
            value={figure(yearStats, (d) => formatInteger(d.spills1224))}
            loading={yearStats.isPending}
            note={`Año natural en curso · ${scope}`}
          />
        </Card>
        <Card className="grid grid-cols-2 gap-4 p-4 sm:p-5 @xl:grid-cols-4">
          <Figure testId="overflow-count" label="Desbordamientos" value={figure(stats, (d) => formatInteger(d.events))} loading={stats.isPending} />
          <Figure testId="overflow-1224" label="Vertidos 12/24" value={figure(stats, (d) => formatInteger(d.spills1224))} loading={stats.isPending} />
          <Figure testId="overflow-duration" label="Duración total" value={figure(stats, (d) => formatDuration(d.totalDurationS))} loading={stats.isPending} />
          <Figure testId="overflow-volume" label="Volumen total" value={figure(stats, totalVolumeText)} loading={stats.isPending} note={stats.data && stats.data.totalVolumeM3 === null ? 'Sin volumen medido' : undefined} />
          <p className="col-span-2 text-xs text-muted-foreground @xl:col-span-4">Según el filtro: desbordamientos que empezaron en el periodo.</p>
        </Card>
      </div>
      {failed?.error ? <LoadError message={failed.error.message} onRetry={failed.refetch} /> : null}
    </section>
  );
}
