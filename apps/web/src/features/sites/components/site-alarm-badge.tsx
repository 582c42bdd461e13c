import { CircleCheck, CircleHelp } from 'lucide-react';
import { ALARM_PRIORITY_LABELS } from '@agua/shared';
import { PRIORITY_COLORS } from '@/features/alarms/components/alarm-badges';
import { cn } from '@/lib/utils';
import { PriorityIcon } from './priority-icon';
import { alarmCountText, type SiteAlarmStatus } from '../utils/site-status';

/**
 * A site's alarms as colour, shape and text (ISA-101: grey when nothing is wrong): the worst
 * unacknowledged priority with its own colour and icon, and the count ('Crítica · 2 alarmas');
 * 'Sin alarmas' in grey otherwise; 'Alarmas sin datos' while they are not known.
 */
export function SiteAlarmBadge({ status, className }: { status: SiteAlarmStatus | null; className?: string }) {
  // The open alarms are not known yet (or could not be read): no check mark, no 'Sin alarmas'.
  if (status === null) {
    return (
      <span data-priority="unknown" className={cn('inline-flex w-fit shrink-0 items-center gap-1 rounded-md border border-dashed border-border px-2 py-0.5 text-xs font-medium text-muted-foreground', className)}>
        <CircleHelp aria-hidden="true" className="size-3.5" />
        Alarmas sin datos
      </span>
    );
  }
  if (status.worst === null) {
    return (
      <span data-priority="none" className={cn('inline-flex w-fit shrink-0 items-center gap-1 rounded-md border border-border bg-muted px-2 py-0.5 text-xs font-medium text-muted-foreground', className)}>
        <CircleCheck aria-hidden="true" className="size-3.5" />
        Sin alarmas
      </span>
    );
  }
  return (
    <span data-priority={status.worst} className={cn('inline-flex w-fit shrink-0 items-center gap-1 rounded-md border px-2 py-0.5 text-xs font-semibold', PRIORITY_COLORS[status.worst], className)}>
      <PriorityIcon priority={status.worst} className="size-3.5" />
      {ALARM_PRIORITY_LABELS[status.worst]} · {alarmCountText(status)}
    </span>
  );
}
