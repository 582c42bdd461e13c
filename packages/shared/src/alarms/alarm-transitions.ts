import type { AlarmState } from './alarm-states';

/** What can happen to an alarm (docs/alarms.md "Transitions"). */
export type AlarmEvent =
  | 'condition_on' // the condition holds again (after its on-delay)
  | 'condition_off' // the condition is gone (after its off-delay, beyond the deadband)
  | 'ack' // a person acknowledged it
  | 'shelve'
  | 'unshelve_active' // shelving ended (expired or lifted) while the condition holds
  | 'unshelve_inactive' // shelving ended with the condition gone
  | 'suppress'; // its device was disabled or retired, or its rule disabled

/**
 * The ISA-18.2 state machine: the state after an event, or null when the event does not apply
 * in that state (an acknowledgement of an alarm that is not waiting for one, say).
 */
export function nextAlarmState(state: AlarmState, event: AlarmEvent): AlarmState | null {
  switch (event) {
    case 'condition_on':
      return state === 'rtn_unack' ? 'unack' : null;
    case 'condition_off':
      if (state === 'ack') return 'cleared';
      if (state === 'unack') return 'rtn_unack';
      return null;
    case 'ack':
      if (state === 'unack') return 'ack';
      if (state === 'rtn_unack') return 'cleared';
      return null;
    case 'shelve':
      return state === 'unack' || state === 'ack' || state === 'rtn_unack' ? 'shelved' : null;
    case 'unshelve_active':
      return state === 'shelved' ? 'unack' : null;
    case 'unshelve_inactive':
      return state === 'shelved' ? 'cleared' : null;
    case 'suppress':
      return state === 'unack' || state === 'ack' || state === 'rtn_unack' || state === 'shelved' ? 'suppressed' : null;
  }
}
