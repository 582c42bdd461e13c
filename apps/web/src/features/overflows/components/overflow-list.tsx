import { Pencil } from 'lucide-react';
import type { OverflowEvent } from '@agua/shared';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatDateTime, formatNumber } from '@/lib/format';
import { formatDuration, formatOverflowVolume } from '../utils/overflow-format';

/** 'Sí — fecha' once the regulator was told, 'No' until then. */
const notifiedText = (e: OverflowEvent) => (e.notifiedAt ? `Sí — ${formatDateTime(e.notifiedAt)}` : 'No');

function EndCell({ event }: { event: OverflowEvent }) {
  return event.endedAt ? (
    <span className="tabular-nums">{formatDateTime(event.endedAt)}</span>
  ) : (
    <Badge tone="crit" data-testid="overflow-open">
      En curso
    </Badge>
  );
}

interface OverflowListProps {
  events: OverflowEvent[];
  deviceName: (id: string) => string;
  /** Editing is offered only with write permission (the server decides again). */
  onEdit: ((event: OverflowEvent) => void) | null;
}

/** The events, newest first: a card each on a narrow screen, a table on a wide one. */
export function OverflowList({ events, deviceName, onEdit }: OverflowListProps) {
  const editButton = (e: OverflowEvent) =>
    onEdit ? (
      <Button variant="outline" size="sm" onClick={() => onEdit(e)} aria-label={`Anotar el desbordamiento de ${deviceName(e.deviceId)} del ${formatDateTime(e.startedAt)}`}>
        <Pencil aria-hidden="true" />
        Anotar
      </Button>
    ) : null;
  return (
    <>
      <ul className="grid gap-2 @3xl:hidden" data-testid="overflow-cards">
        {events.map((e) => (
          <li key={e.id} className={`grid gap-1.5 rounded-lg border bg-card p-3 text-sm ${e.endedAt ? '' : 'border-crit/40'}`} data-testid="overflow-event">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="font-medium break-words">{deviceName(e.deviceId)}</p>
              {e.endedAt ? null : <EndCell event={e} />}
            </div>
            <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-xs">
              <dt className="text-muted-foreground">Inicio</dt>
              <dd className="tabular-nums">{formatDateTime(e.startedAt)}</dd>
              <dt className="text-muted-foreground">Fin</dt>
              <dd>{e.endedAt ? formatDateTime(e.endedAt) : 'En curso'}</dd>
              <dt className="text-muted-foreground">Duración</dt>
              <dd className="tabular-nums">{formatDuration(e.durationS)}</dd>
              <dt className="text-muted-foreground">Nivel máximo</dt>
              <dd className="tabular-nums">{formatNumber(e.peakLevelM)} m</dd>
              <dt className="text-muted-foreground">Volumen</dt>
              <dd className="tabular-nums">{formatOverflowVolume(e)}</dd>
              <dt className="text-muted-foreground">Causa</dt>
              <dd className="break-words">{e.cause ?? '—'}</dd>
              <dt className="text-muted-foreground">Comunicado</dt>
              <dd>{notifiedText(e)}</dd>
            </dl>
            {e.notes ? <p className="text-xs break-words text-muted-foreground">{e.notes}</p> : null}
            {onEdit ? <div className="justify-self-start">{editButton(e)}</div> : null}
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto rounded-lg border @3xl:block">
        <table className="w-full text-sm" data-testid="overflow-table">
          <thead className="bg-muted/50 text-left text-xs text-muted-foreground">
            <tr>
              <th className="p-2 font-medium">Dispositivo</th>
              <th className="p-2 font-medium">Inicio</th>
              <th className="p-2 font-medium">Fin</th>
              <th className="p-2 font-medium">Duración</th>
              <th className="p-2 font-medium">Nivel máximo</th>
              <th className="p-2 font-medium">Volumen</th>
              <th className="p-2 font-medium">Causa</th>
              <th className="p-2 font-medium">Comunicado</th>
              {onEdit ? <th className="p-2 font-medium">Acciones</th> : null}
            </tr>
          </thead>
          <tbody>
            {events.map((e) => (
              <tr key={e.id} className={`border-t ${e.endedAt ? '' : 'bg-crit/5'}`} data-testid="overflow-row">
                <td className="p-2">{deviceName(e.deviceId)}</td>
                <td className="p-2 whitespace-nowrap tabular-nums">{formatDateTime(e.startedAt)}</td>
                <td className="p-2 whitespace-nowrap">
                  <EndCell event={e} />
                </td>
                <td className="p-2 whitespace-nowrap tabular-nums">{formatDuration(e.durationS)}</td>
                <td className="p-2 whitespace-nowrap tabular-nums">{formatNumber(e.peakLevelM)} m</td>
                <td className="p-2 whitespace-nowrap tabular-nums">{formatOverflowVolume(e)}</td>
                <td className="p-2">
                  {e.cause ?? '—'}
                  {e.notes ? <span className="block text-xs text-muted-foreground">{e.notes}</span> : null}
                </td>
                <td className="p-2">{notifiedText(e)}</td>
                {onEdit ? <td className="p-2">{editButton(e)}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
