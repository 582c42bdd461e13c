import { UNACKED_ALARM_STATES, type Alarm, type AlarmPriority, type AlarmState } from '@agua/shared';

export interface AlarmSummary {
  /** Alarms waiting for an acknowledgement (unack and rtn_unack). */
  waiting: number;
  /** The most urgent priority among them, or null when none waits. */
  worst: AlarmPriority | null;
}

const waitsForAck = (state: AlarmState) => (UNACKED_ALARM_STATES as readonly AlarmState[]).includes(state);

/** What the header banner says: how many alarms wait for an acknowledgement, and the worst priority. */
export function summarizeAlarms(alarms: readonly Alarm[]): AlarmSummary {
  let waiting = 0;
  let worst: AlarmPriority | null = null;
  for (const a of alarms) {
    if (!waitsForAck(a.state)) continue;
    waiting++;
    const p = a.priority as AlarmPriority;
    if (worst === null || p < worst) worst = p;
  }
  return { waiting, worst };
}

/** The open alarms of one device. */
export function alarmsOfDevice(alarms: readonly Alarm[], deviceId: string): Alarm[] {
  return alarms.filter((a) => a.deviceId === deviceId);
}

/** Which loud alarms (unacknowledged, priority 1–2) the screen knows, and which of them ring. */
export interface AlarmSound {
  known: ReadonlySet<string>;
  ringing: ReadonlySet<string>;
}

const isLoud = (a: Alarm) => a.state === 'unack' && a.priority <= 2;

/**
 * The sound after the open alarms changed. An alarm rings when it becomes loud after the screen
 * opened (those already there when it opened are not news), and stops when it is no longer loud:
 * acknowledged, shelved, returned to normal or over. `fresh`: one just started ringing.
 */
export function nextAlarmSound(previous: AlarmSound | null, open: readonly Alarm[]): AlarmSound & { fresh: boolean } {
  const loud = new Set(open.filter(isLoud).map((a) => a.id));
  if (!previous) return { known: loud, ringing: new Set(), fresh: false };
  const fresh = [...loud].filter((id) => !previous.known.has(id));
  const ringing = new Set([...loud].filter((id) => previous.ringing.has(id) || fresh.includes(id)));
  return { known: loud, ringing, fresh: fresh.length > 0 };
}
