import type { OverflowEvent } from '@agua/shared';
import { formatDuration } from '@/lib/water-format';
import { cn } from '@/lib/utils';
import { EditButton, OverflowCause, OverflowEnd, OverflowNotified, OverflowStart, OverflowVolume, peakText } from './overflow-cells';

interface OverflowListProps {
  events: OverflowEvent[];
  deviceName: (id: string) => string;
  /** Given only with write permission: without it there is no edit control at all. */
  onEdit?: (event: OverflowEvent) => void;
}

const HEADERS = ['Inicio', 'Fin', 'Duración', 'Nivel máximo', 'Volumen', 'Causa', 'Comunicado', 'Dispositivo'];

/** The events: a table on wide screens, one card per event on narrow ones (no sideways scrolling). */
export function OverflowList({ events, deviceName, onEdit }: OverflowListProps) {
  if (events.length === 0) {
    return (
      <p data-testid="overflow-empty" className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">
        No hay desbordamientos para este filtro.
      </p>
    );
  }
  return (
    <>
      <div className="hidden overflow-hidden rounded-xl border bg-card @5xl:block">
        <table className="w-full table-fixed text-sm" data-testid="overflow-table">
          <colgroup>
            {/* Fixed widths for the figures, so the cause (the only free text) gets what is left. */}
            <col className="w-[8.5rem]" />
            <col className="w-[8.5rem]" />
            <col className="w-[5.5rem]" />
            <col className="w-[5.5rem]" />
            <col className="w-[7rem]" />
            <col />
            <col className="w-[8.5rem]" />
            <col className="w-[9rem]" />
            {onEdit ? <col className="w-[6.5rem]" /> : null}
          </colgroup>
          <thead className="border-b bg-muted/50 text-left text-xs text-muted-foreground">
            <tr>
              {HEADERS.map((h) => (
                <th key={h} scope="col" className="px-3 py-2.5 font-medium">
                  {h}
                </th>
              ))}
              {onEdit ? (
                <th scope="col" className="px-3 py-2.5 font-medium">
                  <span className="sr-only">Acciones</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody className="divide-y">
            {events.map((e) => (
              <tr key={e.id} data-testid={`overflow-${e.id}`} data-state={e.endedAt === null ? 'open' : 'closed'} className={cn('align-top', e.endedAt === null && 'bg-crit/6 shadow-[inset_3px_0_0_var(--crit)]')}>
                <td className="px-3 py-2.5">
                  <OverflowStart event={e} />
                </td>
                <td className="px-3 py-2.5">
                  <OverflowEnd event={e} />
                </td>
                <td className="px-3 py-2.5 tabular-nums">{formatDuration(e.durationS)}</td>
                <td className="px-3 py-2.5 tabular-nums">{peakText(e)}</td>
                <td className="px-3 py-2.5">
                  <OverflowVolume event={e} />
                </td>
                <td className="px-3 py-2.5">
                  <OverflowCause event={e} />
                </td>
                <td className="px-3 py-2.5">
                  <OverflowNotified event={e} />
                </td>
                <td className="px-3 py-2.5 break-words">{deviceName(e.deviceId)}</td>
                {onEdit ? (
                  <td className="px-3 py-2">
                    <EditButton event={e} deviceName={deviceName(e.deviceId)} onEdit={onEdit} />
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <ol className="grid gap-2 @3xl:grid-cols-2 @5xl:hidden" data-testid="overflow-cards">
        {events.map((e) => (
          <li
            key={e.id}
            data-testid={`overflow-${e.id}`}
            data-state={e.endedAt === null ? 'open' : 'closed'}
            className={cn('grid gap-2 rounded-xl border bg-card p-3 text-sm', e.endedAt === null && 'border-crit/50 bg-crit/6 shadow-[inset_3px_0_0_var(--crit)]')}
          >
            <p className="min-w-0 font-semibold break-words">{deviceName(e.deviceId)}</p>
            <dl className="grid grid-cols-[6.5rem_minmax(0,1fr)] gap-x-2 gap-y-1.5">
              <dt className="text-xs text-muted-foreground">Inicio</dt>
              <dd>
                <OverflowStart event={e} />
              </dd>
              <dt className="text-xs text-muted-foreground">Fin</dt>
              <dd>
                <OverflowEnd event={e} />
              </dd>
              <dt className="text-xs text-muted-foreground">Duración</dt>
              <dd className="tabular-nums">{formatDuration(e.durationS)}</dd>
              <dt className="text-xs text-muted-foreground">Nivel máximo</dt>
              <dd className="tabular-nums">{peakText(e)}</dd>
              <dt className="text-xs text-muted-foreground">Volumen</dt>
              <dd>
                <OverflowVolume event={e} />
              </dd>
              <dt className="text-xs text-muted-foreground">Causa</dt>
              <dd className="min-w-0">
                <OverflowCause event={e} />
              </dd>
              <dt className="text-xs text-muted-foreground">Comunicado</dt>
              <dd>
                <OverflowNotified event={e} />
              </dd>
            </dl>
            {onEdit ? (
              <div className="flex justify-end">
                <EditButton event={e} deviceName={deviceName(e.deviceId)} onEdit={onEdit} />
              </div>
            ) : null}
          </li>
        ))}
      </ol>
    </>
  );
}
