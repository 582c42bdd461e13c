import { Link } from 'react-router';
import { ALARM_KIND_LABELS } from '@agua/shared';
import { useOpenAlarms } from '../api/alarms-api';
import { alarmsOfDevice, summarizeAlarms, type AlarmSummary } from '../utils/alarm-summary';
import { AlarmStateBadge, PriorityBadge } from './alarm-badges';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * A card's line of alarms, from the one summary: only active alarms (the condition holds) carry a
 * priority colour; returned-to-normal ones still to acknowledge and shelved ones are named as such,
 * quietly, so that a tank back to normal never wears a red 'Crítica'.
 */
function CompactSummary({ deviceId, summary: s }: { deviceId: string; summary: AlarmSummary }) {
  const active = s.activeUnacked + s.activeAcked;
  const quiet = [
    s.returnedUnacked > 0 ? count(s.returnedUnacked, 'normalizada sin reconocer', 'normalizadas sin reconocer') : null,
    s.shelved > 0 ? count(s.shelved, 'suspendida', 'suspendidas') : null,
  ].filter(Boolean);
  return (
    <Link to="/alarms" data-testid={`device-alarms-${deviceId}`} data-active={active} className="grid gap-1 text-xs hover:underline">
      {active > 0 && s.worstActive !== null ? (
        <span className="inline-flex flex-wrap items-center gap-2">
          <PriorityBadge priority={s.worstActive} />
          <span>
            {count(active, 'alarma activa', 'alarmas activas')}
            {s.activeUnacked > 0 ? ` · ${s.activeUnacked} sin reconocer` : ''}
          </span>
        </span>
      ) : null}
      {quiet.length > 0 ? <span className="text-muted-foreground">{quiet.join(' · ')}</span> : null}
    </Link>
  );
}

/** A device's open alarms, compact (dashboard card) or listed (device panel); nothing when it has none. */
export function DeviceAlarms({ deviceId, variant = 'compact' }: { deviceId: string; variant?: 'compact' | 'list' }) {
  const { data } = useOpenAlarms();
  const alarms = alarmsOfDevice(data ?? [], deviceId);
  if (alarms.length === 0) return null;
  if (variant === 'compact') return <CompactSummary deviceId={deviceId} summary={summarizeAlarms(alarms)} />;
  return (
    <ul className="grid gap-2" data-testid={`device-alarms-${deviceId}`}>
      {alarms.map((a) => (
        <li key={a.id} className="flex flex-wrap items-center gap-2 text-sm">
          <PriorityBadge priority={a.priority} />
          <AlarmStateBadge state={a.state} />
          <span className="font-medium">{ALARM_KIND_LABELS[a.kind]}</span>
          <span className="text-muted-foreground">{a.message}</span>
        </li>
      ))}
    </ul>
  );
}
