import { isAlarmOpen, type Alarm } from '@agua/shared';

/** Open alarms in the order the server lists them: priority 1 first, then newest. */
export function sortOpenAlarms(alarms: Alarm[]): Alarm[] {
  return [...alarms].sort((a, b) => a.priority - b.priority || b.raisedAt.localeCompare(a.raisedAt) || b.id.localeCompare(a.id));
}

/** The open alarms after a transition: an open alarm is put in (or replaced), a closed one goes. */
export function applyAlarmUpdate(open: Alarm[], alarm: Alarm): Alarm[] {
  const others = open.filter((a) => a.id !== alarm.id);
  return sortOpenAlarms(isAlarmOpen(alarm.state) ? [...others, alarm] : others);
}
