/** ISA-18.2 alarm states (docs/alarms.md "Alarm states"). */
export const ALARM_STATES = ['unack', 'ack', 'rtn_unack', 'shelved', 'cleared', 'suppressed'] as const;
export type AlarmState = (typeof ALARM_STATES)[number];

/** States of an alarm that is not over: at most one per rule. */
export const OPEN_ALARM_STATES = ['unack', 'ack', 'rtn_unack', 'shelved'] as const satisfies readonly AlarmState[];
/** States that wait for a person's acknowledgement (the header banner counts them). */
export const UNACKED_ALARM_STATES = ['unack', 'rtn_unack'] as const satisfies readonly AlarmState[];

export function isAlarmOpen(state: AlarmState): boolean {
  return (OPEN_ALARM_STATES as readonly AlarmState[]).includes(state);
}

export const ALARM_STATE_LABELS: Readonly<Record<AlarmState, string>> = {
  unack: 'Activa sin reconocer',
  ack: 'Activa reconocida',
  rtn_unack: 'Normalizada sin reconocer',
  shelved: 'Suspendida',
  cleared: 'Finalizada',
  suppressed: 'Suprimida',
};

/** Shelving lasts 1 to 720 minutes (docs/alarms.md). */
export const SHELVE_MINUTES = { min: 1, max: 720 } as const;
/** Acknowledgement and shelving comments, and how many alarms one acknowledgement may take. */
export const ALARM_COMMENT_MAX_LENGTH = 500;
export const ALARM_ACK_MANY_MAX = 200;
