import type { Alarm, AlarmPriority, Device } from '@agua/shared';
import { UNACKED_ALARM_STATES, type AlarmState } from '@agua/shared';

/** What a site's marker says (docs/sites.md): the worst unacknowledged alarm among its devices, and how many wait. */
export interface SiteAlarmStatus {
  /** Alarms of the site's devices waiting for an acknowledgement (`unack`, `rtn_unack`). */
  waiting: number;
  /** The most urgent priority among them; null: none waits ('Sin alarmas'). */
  worst: AlarmPriority | null;
}

const waits = (state: AlarmState) => (UNACKED_ALARM_STATES as readonly AlarmState[]).includes(state);

/** Each site's status from the live devices (their siteId) and the open alarms, computed in the browser. */
export function siteAlarmStatuses(devices: readonly Pick<Device, 'id' | 'siteId'>[], alarms: readonly Pick<Alarm, 'deviceId' | 'state' | 'priority'>[]): Map<string, SiteAlarmStatus> {
  const siteOf = new Map<string, string>();
  for (const d of devices) if (d.siteId) siteOf.set(d.id, d.siteId);
  const out = new Map<string, SiteAlarmStatus>();
  for (const a of alarms) {
    const siteId = siteOf.get(a.deviceId);
    if (!siteId || !waits(a.state)) continue;
    const s = out.get(siteId) ?? { waiting: 0, worst: null };
    const p = a.priority as AlarmPriority;
    out.set(siteId, { waiting: s.waiting + 1, worst: s.worst === null || p < s.worst ? p : s.worst });
  }
  return out;
}

export const NO_ALARMS: SiteAlarmStatus = { waiting: 0, worst: null };

/** A site's status by its id; null while the open alarms are not known (never 'Sin alarmas' then). */
export type SiteAlarmLookup = (siteId: string) => SiteAlarmStatus | null;

/** '2 alarmas', '1 alarma'; 'Sin alarmas' when none waits. */
export function alarmCountText(status: SiteAlarmStatus): string {
  if (status.waiting === 0) return 'Sin alarmas';
  return `${status.waiting} ${status.waiting === 1 ? 'alarma' : 'alarmas'}`;
}
