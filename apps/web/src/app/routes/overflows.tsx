import { useMemo, useState } from 'react';
import { can, type OverflowEvent } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { useDevices } from '@/features/devices/hooks/use-devices';
import { useOverflowEvents } from '@/features/overflows/api/get-overflow-events';
import { useOverflowStats } from '@/features/overflows/api/get-overflow-stats';
import { OverflowEditDialog } from '@/features/overflows/components/overflow-edit-dialog';
import { OverflowFigures } from '@/features/overflows/components/overflow-figures';
import { OverflowFilters } from '@/features/overflows/components/overflow-filters';
import { OverflowList } from '@/features/overflows/components/overflow-list';
import { toOverflowFilters, useOverflowFilters } from '@/features/overflows/hooks/use-overflow-filters';
import { calendarYear } from '@/features/overflows/utils/overflow-texts';

/** 'Desbordamientos' (docs/water.md "Overflow events"): the events, the year's 12/24 count, and editing with write permission. */
export default function OverflowsRoute() {
  const { user } = useAuth();
  const { devices } = useDevices();
  const filterState = useOverflowFilters();
  const parsed = toOverflowFilters(filterState.values);
  // An impossible range keeps the last valid list on screen while the message explains why.
  const filters = 'filters' in parsed ? parsed.filters : {};
  const valid = 'filters' in parsed;
  const list = useOverflowEvents(filters, valid);
  const stats = useOverflowStats(filters, valid);
  const year = calendarYear(new Date());
  const yearStats = useOverflowStats({ from: year.from, to: year.to, ...(filters.deviceId ? { deviceId: filters.deviceId } : {}) });
  const [editing, setEditing] = useState<OverflowEvent | null>(null);

  const sensors = useMemo(() => devices.filter((d) => d.type === 'level_sensor').sort((a, b) => a.name.localeCompare(b.name, 'es')), [devices]);
  const names = useMemo(() => new Map(devices.map((d) => [d.id, d.name])), [devices]);
  const deviceName = (id: string) => names.get(id) ?? id;
  const events = list.data?.pages.flatMap((p) => p.items) ?? [];
  const canEdit = can(user, 'write');

  return (
    <div className="grid gap-6">
      <PageHeader title="Desbordamientos" description="Vertidos por encima del vertedero de cada sensor de nivel, su recuento 12/24 y lo comunicado a la autoridad." />
      <OverflowFilters values={filterState.values} onChange={filterState.set} onClear={filterState.clear} active={filterState.active} sensors={sensors} error={'error' in parsed ? parsed.error : null} />
      <OverflowFigures
        year={year.year}
        yearStats={{ data: yearStats.data, isPending: yearStats.isPending, error: yearStats.error, refetch: () => void yearStats.refetch() }}
        stats={{ data: stats.data, isPending: stats.isPending, error: stats.error, refetch: () => void stats.refetch() }}
        scope={filters.deviceId ? deviceName(filters.deviceId) : 'todos los sensores'}
      />
      <section aria-labelledby="overflow-events-title" className="grid gap-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="overflow-events-title" className="text-lg font-semibold">
            Eventos
          </h2>
          <p className="text-sm text-muted-foreground">Más recientes primero; se actualizan en directo.</p>
        </div>
        {/* A failed load is an error, never an empty list ('no events' would be a false all-clear). */}
        {list.isError && !list.data ? (
          <LoadError message={list.error.message} onRetry={() => void list.refetch()} />
        ) : list.isPending ? (
          <div className="grid gap-2" aria-hidden="true">
            {Array.from({ length: 4 }, (_, i) => (
              <Skeleton key={i} className="h-14" />
            ))}
          </div>
        ) : (
          <div className={list.isPlaceholderData ? 'grid gap-4 opacity-60 transition-opacity' : 'grid gap-4'} aria-busy={list.isFetching}>
            <OverflowList events={events} deviceName={deviceName} onEdit={canEdit ? setEditing : undefined} />
            {list.isFetchNextPageError ? <LoadError message={list.error?.message ?? ''} onRetry={() => void list.fetchNextPage()} /> : null}
            {list.hasNextPage ? (
              <Button variant="outline" className="justify-self-center" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
                {list.isFetchingNextPage ? <Spinner /> : null}
                Cargar más
              </Button>
            ) : null}
          </div>
        )}
      </section>
      {editing && canEdit ? <OverflowEditDialog key={editing.id} event={editing} deviceName={deviceName(editing.deviceId)} onClose={() => setEditing(null)} /> : null}
    </div>
  );
}
