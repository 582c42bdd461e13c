import { Link } from 'react-router';
import { BellRing } from 'lucide-react';
import { ALARM_PRIORITY_LABELS } from '@agua/shared';
import { cn } from '@/lib/utils';
import { useOpenAlarms } from '../api/alarms-api';
import { PRIORITY_COLORS } from './alarm-badges';
import { useAlarmSound } from '../hooks/use-alarm-sound';
import { summarizeAlarms } from '../utils/alarm-summary';

/**
 * The header's alarm banner: how many alarms wait for an acknowledgement and the worst priority
 * among them, leading to 'Alarmas'. With nothing to acknowledge it is not there (calm when normal).
 */
export function AlarmBanner() {
  const { data } = useOpenAlarms();
  useAlarmSound(data);
  const { waiting, worst } = summarizeAlarms(data ?? []);
  if (waiting === 0 || worst === null) return null;
  const priority = ALARM_PRIORITY_LABELS[worst];
  const label = `${waiting} ${waiting === 1 ? 'alarma sin reconocer' : 'alarmas sin reconocer'} · ${priority}`;
  return (
    <Link
      to="/alarms"
      data-testid="alarm-banner"
      data-priority={worst}
      aria-label={label}
      className={cn('inline-flex h-9 items-center gap-2 rounded-md border px-3 text-sm font-semibold whitespace-nowrap transition-colors', PRIORITY_COLORS[worst], 'hover:brightness-95')}
    >
      <BellRing aria-hidden="true" className="size-4" />
      {/* A phone's header has room for the count and the priority only. */}
      <span aria-hidden="true" className="sm:hidden">
        {waiting} · {priority}
      </span>
      <span aria-hidden="true" className="hidden sm:inline">
        {label}
      </span>
    </Link>
  );
}
