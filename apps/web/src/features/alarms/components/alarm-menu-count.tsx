import { useId, type ReactNode } from 'react';
import { ALARM_PRIORITY_LABELS } from '@agua/shared';
import { cn } from '@/lib/utils';
import { useOpenAlarms } from '../api/alarms-api';
import { summarizeAlarms } from '../utils/alarm-summary';
import { PRIORITY_COLORS } from './alarm-badges';

/**
 * The menu's count of alarms waiting for an acknowledgement (the banner's figure, from the same
 * summary), so that the phone's menu says it too. Drawn over the end of the 'Alarmas' link (the
 * caller's item is `relative`) but outside it, so the link's text stays 'Alarmas'; screen readers
 * hear it as the link's description. Nothing when none waits, or while the menu is locked
 * (`enabled` false: a pending password change or two-factor enrolment, when the server refuses it).
 */
export function useAlarmMenuCount(enabled = true): { badge: ReactNode; describedBy: string | undefined } {
  const id = useId();
  const { data } = useOpenAlarms(enabled);
  const { waiting, worst } = summarizeAlarms(data ?? []);
  if (waiting === 0 || worst === null) return { badge: null, describedBy: undefined };
  const text = `${waiting} ${waiting === 1 ? 'alarma sin reconocer' : 'alarmas sin reconocer'} · ${ALARM_PRIORITY_LABELS[worst]}`;
  return {
    describedBy: id,
    badge: (
      <>
        <span
          aria-hidden="true"
          data-testid="alarm-menu-count"
          className={cn('pointer-events-none absolute top-1/2 right-3 min-w-6 -translate-y-1/2 rounded-full border px-1.5 text-center text-xs font-semibold tabular-nums', PRIORITY_COLORS[worst])}
        >
          {waiting}
        </span>
        <span id={id} className="sr-only">
          {text}
        </span>
      </>
    ),
  };
}
