import { UNACKED_ALARM_STATES, type Alarm, type AlarmPriority, type AlarmState } from '@agua/shared';

/**
 * The one alarm summary every screen shows (docs/operator-console.md: computed once, naming what it counts): the
 * header's banner, the menu's count, each device card. ISA-18.2's states are kept apart, because
 * they ask different things of the operator.
 */
export interface AlarmSummary {
  /** The condition holds and nobody has acknowledged it (`unack`): act now. */
  activeUnacked: number;
  /** The condition holds, acknowledged (`ack`): being dealt with. */
  activeAcked: number;
  /** The condition cleared but the alarm still waits for an acknowledgement (`rtn_unack`). */
  returnedUnacked: number;
  /** Shelved: hidden on purpose for a while, neither active nor waiting here. */
  shelved: number;
  /** Alarms waiting for an acknowledgement (`unack` and `rtn_unack`): the banner's count. */
  waiting: number;
  /** The most urgent priority among those waiting, or null when none waits: the banner's colour. */
  worst: AlarmPriority | null;
  /** The most urgent priority among the active ones (`unack`, `ack`), or null: a card's colour. */
  worstActive: AlarmPriority | null;
}

const waitsForAck = (state: AlarmState) => (UNACKED_ALARM_STATES as readonly AlarmState[]).includes(state);

const more = (worst: AlarmPriority | null, p: AlarmPriority) => (worst === null || p < worst ? p : worst);

export function summarizeAlarms(alarms: readonly Alarm[]): AlarmSummary {
  const summary: AlarmSummary = { activeUnacked: 0, activeAcked: 0, returnedUnacked: 0, shelved: 0, waiting: 0, worst: null, worstActive: null };
  for (const a of alarms) {
    const p = a.priority as AlarmPriority;
    if (a.state === 'unack') summary.activeUnacked++;
    else if (a.state === 'ack') summary.activeAcked++;
    else if (a.state === 'rtn_unack') summary.returnedUnacked++;
    else if (a.state === 'shelved') summary.shelved++;
    if (a.state === 'unack' || a.state === 'ack') summary.worstActive = more(summary.worstActive, p);
    if (waitsForAck(a.state)) {
      summary.waiting++;
      summary.worst = more(summary.worst, p);
    }
  }
  return summary;
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
