import { Pencil, Waves } from 'lucide-react';
import type { OverflowEvent } from '@agua/shared';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatDateTime, formatMeasure } from '@/lib/format';
import { methodText, notifiedText, volumeText } from '../utils/overflow-texts';

/** The end, or 'En curso' (with an icon and a word: colour is never the only cue) while it spills. */
export function OverflowEnd({ event }: { event: OverflowEvent }) {
  if (event.endedAt === null) {
    return (
      <Badge tone="crit" data-testid="overflow-open">
        <Waves aria-hidden="true" />
        En curso
      </Badge>
    );
  }
  return <time dateTime={event.endedAt}>{formatDateTime(event.endedAt)}</time>;
}

export function OverflowStart({ event }: { event: OverflowEvent }) {
  return <time dateTime={event.startedAt}>{formatDateTime(event.startedAt)}</time>;
}

export const peakText = (event: OverflowEvent) => formatMeasure(event.peakLevelM, 'm');

/** The volume and how it was found: '12,3 m³ por vertedero', '— sin vertedero'. */
export function OverflowVolume({ event }: { event: OverflowEvent }) {
  const unknown = event.volumeM3 === null;
  return (
    <span className="grid">
      <span className={unknown ? 'text-muted-foreground' : 'tabular-nums'}>{volumeText(event.volumeM3)}</span>
      <span className="text-xs text-muted-foreground">{methodText(event.method)}</span>
    </span>
  );
}

/** The cause people gave (or '—'), with the notes beneath. */
export function OverflowCause({ event }: { event: OverflowEvent }) {
  return (
    <span className="grid min-w-0 gap-0.5">
      <span className={event.cause ? 'break-words' : 'text-muted-foreground'}>{event.cause ?? '—'}</span>
      {event.notes ? <span className="line-clamp-2 text-xs break-words text-muted-foreground">{event.notes}</span> : null}
    </span>
  );
}

export function OverflowNotified({ event }: { event: OverflowEvent }) {
  return <span className={event.notifiedAt ? undefined : 'text-muted-foreground'}>{notifiedText(event.notifiedAt)}</span>;
}

/** 'Editar', named for the screen reader by the device and the start. */
export function EditButton({ event, deviceName, onEdit }: { event: OverflowEvent; deviceName: string; onEdit: (event: OverflowEvent) => void }) {
  return (
    <Button variant="outline" size="sm" onClick={() => onEdit(event)} aria-label={`Editar el desbordamiento de ${deviceName} del ${formatDateTime(event.startedAt)}`}>
      <Pencil aria-hidden="true" />
      Editar
    </Button>
  );
}
