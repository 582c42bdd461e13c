import { useState } from 'react';
import { Download, X } from 'lucide-react';
import { ALARM_KIND_LABELS, ALARM_PRIORITY_LABELS, ALARM_STATE_LABELS, ALARM_STATES, type Alarm, type AlarmPriority, type AlarmState, type Device } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { toDayRange } from '@/lib/day-range';
import { formatDateTime } from '@/lib/format';
import { downloadAlarms, useAlarmHistory, type AlarmHistoryFilters } from '../api/alarms-api';
import { AlarmStateBadge, PriorityBadge } from './alarm-badges';

/** What the filter form shows: ids and codes, and days (yyyy-mm-dd, both inclusive). */
interface FilterValues {
  deviceId: string;
  priority: string;
  state: string;
  from: string;
  to: string;
}

const NO_FILTERS: FilterValues = { deviceId: '', priority: '', state: '', from: '', to: '' };

function toFilters(v: FilterValues): { filters: AlarmHistoryFilters } | { error: string } {
  const days = toDayRange(v.from, v.to);
  if ('error' in days) return days;
  return {
    filters: {
      ...days.range,
      ...(v.deviceId ? { deviceId: v.deviceId } : {}),
      ...(v.priority ? { priority: Number(v.priority) as AlarmPriority } : {}),
      ...(v.state ? { state: v.state as AlarmState } : {}),
    },
  };
}

/** Who acknowledged an alarm, with the comment: 'Juan Pérez — Revisado', or '—'. */
const ackedByText = (a: Alarm) => (a.ackedBy ? `${a.ackedBy.name}${a.ackComment ? ` — ${a.ackComment}` : ''}` : '—');

/**
 * 'Historial': every alarm, newest first, filtered by device, priority, state and days; with
 * 'Exportar'. `siteId` (the screen's 'Sitio' filter) narrows the pages and the export on the server,
 * and the devices offered to the site's.
 */
export function AlarmHistory({ devices, deviceName, siteId = null }: { devices: Device[]; deviceName: (id: string) => string; siteId?: string | null }) {
  const [values, setValues] = useState<FilterValues>(NO_FILTERS);
  // An impossible range keeps the last valid list on screen while the message explains why.
  const [filters, setFilters] = useState<AlarmHistoryFilters>({});
  const [error, setError] = useState<string | null>(null);
  const update = (next: FilterValues) => {
    setValues(next);
    const parsed = toFilters(next);
    setError('error' in parsed ? parsed.error : null);
    if ('filters' in parsed) setFilters(parsed.filters);
  };
  const asked: AlarmHistoryFilters = siteId ? { ...filters, siteId } : filters;
  const history = useAlarmHistory(asked);
  const offered = siteId ? devices.filter((d) => d.siteId === siteId || d.id === values.deviceId) : devices;
  const items = history.data?.pages.flatMap((p) => p.items) ?? [];
  const field = (key: keyof FilterValues) => ({
    id: `alarm-filter-${key}`,
    value: values[key],
    onChange: (e: { target: { value: string } }) => update({ ...values, [key]: e.target.value }),
  });
  const exportAs = (format: 'xlsx' | 'csv') =>
    downloadAlarms(format, asked).catch((err: unknown) =>
      toast({ title: 'No se pudo exportar', description: err instanceof Error ? err.message : String(err), variant: 'destructive' }),
    );

  return (
    <div className="grid gap-4">
      <section aria-label="Filtros" className="grid gap-3 rounded-xl border bg-card p-4 sm:grid-cols-3 xl:grid-cols-[repeat(5,minmax(0,1fr))_auto] xl:items-end">
        <FormField id="alarm-filter-deviceId" label="Dispositivo">
          <NativeSelect {...field('deviceId')}>
            <option value="">Todos</option>
            {offered.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField id="alarm-filter-priority" label="Prioridad">
          <NativeSelect {...field('priority')}>
            <option value="">Todas</option>
            {([1, 2, 3, 4] as const).map((p) => (
              <option key={p} value={p}>
                {ALARM_PRIORITY_LABELS[p]}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField id="alarm-filter-state" label="Estado">
          <NativeSelect {...field('state')}>
            <option value="">Todos</option>
            {ALARM_STATES.map((s) => (
              <option key={s} value={s}>
                {ALARM_STATE_LABELS[s]}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField id="alarm-filter-from" label="Desde">
          <Input type="date" max={values.to || undefined} aria-invalid={error ? true : undefined} {...field('from')} />
        </FormField>
        <FormField id="alarm-filter-to" label="Hasta">
          <Input type="date" min={values.from || undefined} aria-invalid={error ? true : undefined} {...field('to')} />
        </FormField>
        <Button variant="ghost" onClick={() => update(NO_FILTERS)} disabled={JSON.stringify(values) === JSON.stringify(NO_FILTERS)}>
          <X aria-hidden="true" />
          Limpiar filtros
        </Button>
        {error ? (
          <p role="alert" className="text-sm font-medium text-crit-fg sm:col-span-3 xl:col-span-6">
            {error}
          </p>
        ) : null}
      </section>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground">Más recientes primero.</p>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" onClick={() => void exportAs('xlsx')}>
            <Download aria-hidden="true" />
            Exportar Excel
          </Button>
          <Button variant="outline" size="sm" onClick={() => void exportAs('csv')}>
            <Download aria-hidden="true" />
            Exportar CSV
          </Button>
        </div>
      </div>
      {history.isError ? <FormAlert message={history.error.message} /> : null}
      {history.isPending ? (
        <Spinner />
      ) : items.length === 0 ? (
        history.isError ? null : <p className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">No hay alarmas con esos filtros.</p>
      ) : (
        <>
          {/* A narrow screen gets one card per alarm, priority and state first: a 7-column table put them off-screen. */}
          <ul className="grid gap-2 @3xl:hidden" data-testid="alarm-history-cards">
            {items.map((a) => (
              <li key={a.id} className="grid gap-1.5 rounded-lg border bg-card p-3 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <PriorityBadge priority={a.priority} />
                  <AlarmStateBadge state={a.state} />
                </div>
                <p className="font-medium break-words">
                  {deviceName(a.deviceId)} · {ALARM_KIND_LABELS[a.kind]}
                </p>
                <p className="text-xs text-muted-foreground break-words">{a.message}</p>
                <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-xs">
                  <dt className="text-muted-foreground">Fecha y Hora</dt>
                  <dd className="tabular-nums">{formatDateTime(a.raisedAt)}</dd>
                  <dt className="text-muted-foreground">Reconocida por</dt>
                  <dd className="break-words">{ackedByText(a)}</dd>
                  <dt className="text-muted-foreground">Normalizada</dt>
                  <dd className="tabular-nums">{a.clearedAt ? formatDateTime(a.clearedAt) : '—'}</dd>
                </dl>
              </li>
            ))}
          </ul>
          <div className="hidden overflow-x-auto rounded-lg border @3xl:block">
            <table className="w-full text-sm" data-testid="alarm-history">
              <thead className="bg-muted/50 text-left text-xs text-muted-foreground">
                <tr>
                  <th className="p-2 font-medium">Fecha y Hora</th>
                  <th className="p-2 font-medium">Dispositivo</th>
                  <th className="p-2 font-medium">Alarma</th>
                  <th className="p-2 font-medium">Prioridad</th>
                  <th className="p-2 font-medium">Estado</th>
                  <th className="p-2 font-medium">Reconocida por</th>
                  <th className="p-2 font-medium">Normalizada</th>
                </tr>
              </thead>
              <tbody>
                {items.map((a) => (
                  <tr key={a.id} className="border-t">
                    <td className="p-2 whitespace-nowrap tabular-nums">{formatDateTime(a.raisedAt)}</td>
                    <td className="p-2">{deviceName(a.deviceId)}</td>
                    <td className="p-2">
                      {ALARM_KIND_LABELS[a.kind]}
                      <span className="block text-xs text-muted-foreground">{a.message}</span>
                    </td>
                    <td className="p-2">
                      <PriorityBadge priority={a.priority} />
                    </td>
                    <td className="p-2">
                      <AlarmStateBadge state={a.state} />
                    </td>
                    <td className="p-2">{ackedByText(a)}</td>
                    <td className="p-2 whitespace-nowrap tabular-nums">{a.clearedAt ? formatDateTime(a.clearedAt) : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {history.hasNextPage ? (
        <Button variant="outline" className="justify-self-center" onClick={() => void history.fetchNextPage()} disabled={history.isFetchingNextPage}>
          {history.isFetchingNextPage ? <Spinner /> : null}
          Cargar más
        </Button>
      ) : null}
    </div>
  );
}
