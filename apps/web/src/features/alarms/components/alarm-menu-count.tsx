import { useId, type ReactNode } from 'react';
import { ALARM_PRIORITY_LABELS } from '@agua/shared';
import { cn } from '@/lib/utils';
import { useOpenAlarms } from '../api/alarms-api';
import { summarizeAlarms } from '../utils/alarm-summary';
import { PRIORITY_COLORS } from './alarm-badges';

/**
 * The menu's count of alarms waiting for an acknowledgement (the banner's figure, from the same
 * summary), so that the phone's menu says it too. Seen as a number; read as a description, so the
 * link's name stays 'Alarmas'. Nothing when none waits.
 */
export function useAlarmMenuCount(): { badge: ReactNode; describedBy: string | undefined } {
  const id = useId();
  const { data } = useOpenAlarms();
  const { waiting, worst } = summarizeAlarms(data ?? []);
  if (waiting === 0 || worst === null) return { badge: null, describedBy: undefined };
  const text = `${waiting} ${waiting === 1 ? 'alarma sin reconocer' : 'alarmas sin reconocer'} · ${ALARM_PRIORITY_LABELS[worst]}`;
  return {
    describedBy: id,
    badge: (
      <>
        <span aria-hidden="true" data-testid="alarm-menu-count" className={cn('ml-auto min-w-6 rounded-full border px-1.5 text-center text-xs font-semibold tabular-nums', PRIORITY_COLORS[worst])}>
          {waiting}
        </span>
        <span id={id} className="sr-only">
          {text}
        </span>
      </>
    ),
  };
}
