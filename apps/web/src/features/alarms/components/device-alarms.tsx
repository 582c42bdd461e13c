import { Link } from 'react-router';
import { ALARM_KIND_LABELS } from '@agua/shared';
import { useOpenAlarms } from '../api/alarms-api';
import { alarmsOfDevice, summarizeAlarms } from '../utils/alarm-summary';
import { AlarmStateBadge, PriorityBadge } from './alarm-badges';

/** A device's open alarms, compact (dashboard card) or listed (device panel); nothing when it has none. */
export function DeviceAlarms({ deviceId, variant = 'compact' }: { deviceId: string; variant?: 'compact' | 'list' }) {
  const { data } = useOpenAlarms();
  const alarms = alarmsOfDevice(data ?? [], deviceId);
  if (alarms.length === 0) return null;
  if (variant === 'compact') {
    const worst = Math.min(...alarms.map((a) => a.priority));
    const { waiting } = summarizeAlarms(alarms);
    return (
      <Link to="/alarms" data-testid={`device-alarms-${deviceId}`} className="inline-flex items-center gap-2 text-xs hover:underline">
        <PriorityBadge priority={worst} />
        <span>
          {alarms.length} {alarms.length === 1 ? 'alarma activa' : 'alarmas activas'}
          {waiting > 0 ? ` · ${waiting} sin reconocer` : ''}
        </span>
      </Link>
    );
  }
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
