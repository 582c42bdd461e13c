import { useState } from 'react';
import { X } from 'lucide-react';
import { can, type OverflowEvent } from '@agua/shared';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { useDevices } from '@/features/devices/hooks/use-devices';
import { useOverflowEvents, useOverflowStats, type OverflowFilters } from '@/features/overflows/api/overflows-api';
import { OverflowEditDialog } from '@/features/overflows/components/overflow-edit-dialog';
import { OverflowList } from '@/features/overflows/components/overflow-list';
import { formatDuration, formatTotalVolume, yearRange } from '@/features/overflows/utils/overflow-format';
import { toDayRange } from '@/lib/day-range';
import { formatInteger } from '@/lib/format';

interface FilterValues {
  deviceId: string;
  from: string;
  to: string;
}
const NO_FILTERS: FilterValues = { deviceId: '', from: '', to: '' };

/** A figure of the counts: its value, or '…' while unknown (never a 0 it does not have). */
function Figure({ label, value, testId, className }: { label: string; value: string | null; testId: string; className?: string }) {
  return (
    <div className={`grid gap-1 rounded-xl border bg-card p-4 ${className ?? ''}`}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-2xl font-semibold tabular-nums" data-testid={testId}>
        {value ?? '…'}
      </dd>
    </div>
  );
}

/** 'Desbordamientos': the overflow events, the counts a regulator asks for, and their annotation. */
export default function OverflowsRoute() {
  const { user } = useAuth();
  const { devices } = useDevices();
  const sensors = devices.filter((d) => d.type === 'level_sensor');
  const names = new Map(devices.map((d) => [d.id, d.name]));
  const deviceName = (id: string) => names.get(id) ?? id;
  const [values, setValues] = useState<FilterValues>(NO_FILTERS);
  const [filters, setFilters] = useState<OverflowFilters>({});
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<OverflowEvent | null>(null);
  const update = (next: FilterValues) => {
    setValues(next);
    const days = toDayRange(next.from, next.to);
    setError('error' in days ? days.error : null);
    if ('range' in days) setFilters({ ...days.range, ...(next.deviceId ? { deviceId: next.deviceId } : {}) });
  };
  const list = useOverflowEvents(filters);
  const stats = useOverflowStats(filters);
  const year = useOverflowStats({ ...yearRange(), ...(filters.deviceId ? { deviceId: filters.deviceId } : {}) });
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const field = (key: keyof FilterValues) => ({
    id: `overflow-filter-${key}`,
    value: values[key],
    onChange: (e: { target: { value: string } }) => update({ ...values, [key]: e.target.value }),
  });
  const counted = stats.data && !stats.isError ? stats.data : null;

  return (
    <div className="grid gap-6">
      <PageHeader title="Desbordamientos" description="Vertidos por encima del vertedero: inicio, fin, duración, nivel máximo, volumen y su comunicación a la autoridad." />
      <section aria-label="Filtros" className="grid gap-3 rounded-xl border bg-card p-4 sm:grid-cols-3 xl:grid-cols-[repeat(3,minmax(0,1fr))_auto] xl:items-end">
        <FormField id="overflow-filter-deviceId" label="Dispositivo">
          <NativeSelect {...field('deviceId')}>
            <option value="">Todos</option>
            {sensors.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField id="overflow-filter-from" label="Desde">
          <Input type="date" max={values.to || undefined} aria-invalid={error ? true : undefined} {...field('from')} />
        </FormField>
        <FormField id="overflow-filter-to" label="Hasta">
          <Input type="date" min={values.from || undefined} aria-invalid={error ? true : undefined} {...field('to')} />
        </FormField>
        <Button variant="ghost" onClick={() => update(NO_FILTERS)} disabled={JSON.stringify(values) === JSON.stringify(NO_FILTERS)}>
          <X aria-hidden="true" />
          Limpiar filtros
        </Button>
        {error ? (
          <p role="alert" className="text-sm font-medium text-crit-fg sm:col-span-3 xl:col-span-4">
            {error}
          </p>
        ) : null}
      </section>
      <section aria-label="Recuento">
        <dl className="grid grid-cols-2 gap-3 xl:grid-cols-5">
          <Figure label={`Vertidos 12/24 en ${new Date().getFullYear()}`} value={year.data && !year.isError ? formatInteger(year.data.spills1224) : null} testId="overflow-year-1224" className="col-span-2 xl:col-span-1" />
          <Figure label="Desbordamientos (filtro)" value={counted ? formatInteger(counted.events) : null} testId="overflow-count" />
          <Figure label="Vertidos 12/24 (filtro)" value={counted ? formatInteger(counted.spills1224) : null} testId="overflow-1224" />
          <Figure label="Duración total" value={counted ? formatDuration(counted.totalDurationS) : null} testId="overflow-duration" />
          <Figure label="Volumen total" value={counted ? formatTotalVolume(counted.totalVolumeM3) : null} testId="overflow-volume" />
        </dl>
        <p className="mt-2 text-xs text-muted-foreground">
          Regla 12/24: las primeras 12 horas desde el inicio de un vertido cuentan uno; cada bloque siguiente de 24 horas con vertido, uno más.
        </p>
      </section>
      {list.isError && !list.data ? (
        <LoadError message={list.error.message} onRetry={() => void list.refetch()} />
      ) : list.isPending ? (
        <Spinner />
      ) : items.length === 0 ? (
        <p className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">No hay desbordamientos con esos filtros.</p>
      ) : (
        <OverflowList events={items} deviceName={deviceName} onEdit={can(user, 'write') ? setEditing : null} />
      )}
      {list.hasNextPage ? (
        <Button variant="outline" className="justify-self-center" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          {list.isFetchingNextPage ? <Spinner /> : null}
          Cargar más
        </Button>
      ) : null}
      <OverflowEditDialog event={editing} deviceName={editing ? deviceName(editing.deviceId) : ''} onClose={() => setEditing(null)} />
    </div>
  );
}
