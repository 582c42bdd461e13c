import { Link } from 'react-router';
import { BellRing } from 'lucide-react';
import { ALARM_PRIORITY_LABELS } from '@agua/shared';
import { cn } from '@/lib/utils';
import { useOpenAlarms } from '../api/alarms-api';
import { PRIORITY_COLORS } from './alarm-badges';
import { useAlarmSound, type SoundPlace } from '../hooks/use-alarm-sound';
import { summarizeAlarms } from '../utils/alarm-summary';

/**
 * The header's alarm banner: how many alarms wait for an acknowledgement and the worst priority
 * among them, leading to 'Alarmas'. With nothing to acknowledge it is not there (calm when normal).
 * It also rings, by the sound setting of where it is shown (`soundPlace`).
 */
export function AlarmBanner({ soundPlace = 'screens' }: { soundPlace?: SoundPlace }) {
  const { data } = useOpenAlarms();
  useAlarmSound(data, soundPlace);
  const { waiting, worst } = summarizeAlarms(data ?? []);
  if (waiting === 0 || worst === null) return null;
  const priority = ALARM_PRIORITY_LABELS[worst];
  const words = waiting === 1 ? 'alarma sin reconocer' : 'alarmas sin reconocer';
  // The name is the text itself ('1 alarma sin reconocer · Alta'): on a phone the words are only
  // for screen readers, so what is seen ('1 · Alta') is still part of what is read.
  return (
    <Link
      to="/alarms"
      data-testid="alarm-banner"
      data-priority={worst}
      // 44 px tall: a touch target on a phone, like the header's buttons beside it.
      className={cn('inline-flex h-11 items-center gap-2 rounded-md border px-2.5 text-sm font-semibold whitespace-nowrap transition-colors sm:px-3', PRIORITY_COLORS[worst], 'hover:brightness-95')}
    >
      {/* A phone's header has room for the count and the priority only (no bell, at most '99+'), beside the live light and three buttons. */}
      <BellRing aria-hidden="true" className="hidden size-4 sm:block" />
      <span className="sm:hidden">{waiting > 99 ? '99+' : waiting}</span>
      <span className="hidden sm:inline">{waiting}</span>{' '}
      <span className="sr-only sm:not-sr-only">{words}</span>{' '}
      <span>· {priority}</span>
    </Link>
  );
}
