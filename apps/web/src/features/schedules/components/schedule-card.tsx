import { useId, useState } from 'react';
import { CalendarClock, ChevronDown, Pencil, Power, PowerOff, Trash2 } from 'lucide-react';
import type { Device, Schedule } from '@agua/shared';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useNow } from '@/hooks/use-now';
import { cn } from '@/lib/utils';
import { useSchedulePreview, useScheduleRuns } from '../api/schedules';
import { durationText, pendingClose, plannedCloseText, scheduleState, scheduleSummary, scheduleVerdict } from '../utils/schedule-texts';
import { formatZonedWhen } from '../utils/zoned-time';
import { ScheduleRuns } from './schedule-runs';
import { ScheduleVerdict } from './schedule-verdict';

interface ScheduleCardProps {
  schedule: Schedule;
  device: Device;
  /** Given only to admins (manage_devices). */
  onEdit?: () => void;
  onToggle?: () => void;
  onDelete?: () => void;
  /** The enable/disable of this schedule is on its way. */
  toggling?: boolean;
}

/** One schedule of the gate: what and when, its state, its next run and whether it would go, and its runs. */
export function ScheduleCard({ schedule: s, device, onEdit, onToggle, onDelete, toggling }: ScheduleCardProps) {
  const now = useNow();
  const preview = useSchedulePreview(s.enabled ? s.id : undefined);
  const runs = useScheduleRuns(s.id);
  const [open, setOpen] = useState(false);
  const historyId = useId();
  const state = scheduleState(s, now);
  const closing = pendingClose(runs.data?.pages.flatMap((p) => p.items) ?? []);
  const duration = s.action === 'abrir' ? durationText(s.durationMin) : null;

  return (
    <li data-testid={`schedule-${s.id}`} className="grid gap-3 rounded-lg border bg-card p-3 text-sm">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="flex min-w-0 items-center gap-2">
          <CalendarClock aria-hidden="true" className="size-4 shrink-0 text-primary" />
          <span className="min-w-0 font-semibold break-words" data-testid="schedule-name">
            {s.name}
          </span>
        </p>
        <Badge tone={state.tone} data-testid="schedule-state">
          {state.label}
        </Badge>
      </div>

      <div className="grid gap-0.5">
        <p data-testid="schedule-summary">
          {scheduleSummary(s)}
          {duration ? <span className="text-muted-foreground"> · {duration}</span> : null}
        </p>
        <p className="text-muted-foreground">
          Próxima ejecución:{' '}
          <span data-testid="schedule-next" className="font-medium text-foreground tabular-nums">
            {s.nextRunAt ? formatZonedWhen(s.nextRunAt, s.timezone, now) : 'ninguna'}
          </span>
        </p>
        {closing ? (
          <p data-testid="schedule-closing" className="font-medium text-primary">
            {plannedCloseText(closing, s.timezone, now)}
          </p>
        ) : null}
      </div>

      {s.enabled ? <ScheduleVerdict verdict={scheduleVerdict(s, preview.data, device)} /> : null}

      {onEdit || onToggle || onDelete ? (
        // On a phone the three buttons fit one row without their icons.
        <div className="flex flex-wrap gap-2 max-[430px]:[&_svg]:hidden">
          {onEdit ? (
            <Button variant="outline" size="sm" onClick={onEdit} aria-label={`Editar ${s.name}`}>
              <Pencil aria-hidden="true" />
              Editar
            </Button>
          ) : null}
          {onToggle ? (
            <Button variant="outline" size="sm" onClick={onToggle} disabled={toggling} aria-label={`${s.enabled ? 'Desactivar' : 'Activar'} ${s.name}`}>
              {s.enabled ? <PowerOff aria-hidden="true" /> : <Power aria-hidden="true" />}
              {s.enabled ? 'Desactivar' : 'Activar'}
            </Button>
          ) : null}
          {onDelete ? (
            <Button variant="outline" size="sm" className="text-crit-fg" onClick={onDelete} aria-label={`Eliminar ${s.name}`}>
              <Trash2 aria-hidden="true" />
              Eliminar
            </Button>
          ) : null}
        </div>
      ) : null}

      <div className="grid gap-2 border-t pt-2">
        <Button
          variant="ghost"
          size="sm"
          className="justify-self-start px-2"
          aria-expanded={open}
          aria-controls={historyId}
          onClick={() => setOpen((o) => !o)}
          aria-label={`Últimas ejecuciones de ${s.name}`}
        >
          <ChevronDown aria-hidden="true" className={cn('transition-transform', open && 'rotate-180')} />
          Últimas ejecuciones
        </Button>
        <div id={historyId} hidden={!open}>
          {open ? <ScheduleRuns schedule={s} runs={runs} /> : null}
        </div>
      </div>
    </li>
  );
}
