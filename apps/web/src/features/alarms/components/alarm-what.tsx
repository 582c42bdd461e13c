import { ALARM_KIND_LABELS, type Alarm } from '@agua/shared';

/** What an alarm is about, as every list of alarms names it: 'Device · Kind', then its message. */
export function AlarmWhat({ alarm, deviceName }: { alarm: Pick<Alarm, 'deviceId' | 'kind' | 'message'>; deviceName: (id: string) => string }) {
  return (
    <>
      <p className="font-medium break-words">
        {deviceName(alarm.deviceId)} · {ALARM_KIND_LABELS[alarm.kind]}
      </p>
      <p className="text-sm break-words text-muted-foreground">{alarm.message}</p>
    </>
  );
}
