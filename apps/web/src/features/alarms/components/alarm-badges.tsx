import { CircleAlert, Info, OctagonAlert, TriangleAlert, type LucideIcon } from 'lucide-react';
import { ALARM_PRIORITY_LABELS, ALARM_STATE_LABELS, type AlarmPriority, type AlarmState } from '@agua/shared';
import { cn } from '@/lib/utils';

/**
 * One colour per priority (docs/operator-console.md), used for nothing but alarms: the badges and the header's
 * banner.
 */
export const PRIORITY_COLORS: Record<AlarmPriority, string> = {
  1: 'border-red-700 bg-red-600 text-white',
  2: 'border-orange-600 bg-orange-500 text-black',
  3: 'border-yellow-500 bg-yellow-300 text-black',
  4: 'border-violet-700 bg-violet-600 text-white',
};

/** And one shape per priority, so that the colour is never the only cue. */
const PRIORITY_ICONS: Record<AlarmPriority, LucideIcon> = { 1: OctagonAlert, 2: TriangleAlert, 3: CircleAlert, 4: Info };

export function PriorityBadge({ priority, className }: { priority: number; className?: string }) {
  const known = (priority in PRIORITY_ICONS ? priority : 4) as AlarmPriority;
  const Icon = PRIORITY_ICONS[known];
  return (
    <span data-priority={priority} className={cn('inline-flex w-fit shrink-0 items-center gap-1 rounded-md border px-2 py-0.5 text-xs font-semibold', PRIORITY_COLORS[known], className)}>
      <Icon aria-hidden="true" className="size-3.5" />
      {ALARM_PRIORITY_LABELS[priority as AlarmPriority] ?? priority}
    </span>
  );
}

/** unack stands out (solid outline), rtn_unack is dashed (returned, still to acknowledge), ack and shelved are quiet. */
const STATE_LOOK: Record<AlarmState, string> = {
  unack: 'border-2 border-foreground font-semibold text-foreground',
  rtn_unack: 'border-2 border-dashed border-muted-foreground text-foreground',
  ack: 'border-border text-muted-foreground',
  shelved: 'border-border italic text-muted-foreground',
  cleared: 'border-border text-muted-foreground',
  suppressed: 'border-border text-muted-foreground',
};

export function AlarmStateBadge({ state }: { state: AlarmState }) {
  return <span className={cn('inline-flex w-fit shrink-0 items-center rounded-md border px-2 py-0.5 text-xs whitespace-nowrap', STATE_LOOK[state])}>{ALARM_STATE_LABELS[state]}</span>;
}
