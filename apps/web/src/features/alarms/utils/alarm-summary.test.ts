import { describe, expect, it } from 'vitest';
import type { Alarm } from '@agua/shared';
import { nextAlarmSound, summarizeAlarms } from './alarm-summary';

const a = (priority: number, state: Alarm['state'], id = `${priority}${state}`) => ({ id, priority, state }) as Alarm;

describe('the alarm summary', () => {
  it('the banner counts unack and rtn_unack only, and names the worst priority among them', () => {
    expect(summarizeAlarms([a(3, 'unack'), a(1, 'ack'), a(2, 'rtn_unack'), a(1, 'shelved')])).toMatchObject({ waiting: 2, worst: 2 });
    expect(summarizeAlarms([a(4, 'rtn_unack'), a(1, 'unack'), a(2, 'unack')])).toMatchObject({ waiting: 3, worst: 1 });
  });
  it('nothing waiting: zero and no priority (the banner is not shown)', () => {
    expect(summarizeAlarms([a(1, 'ack'), a(2, 'shelved')])).toMatchObject({ waiting: 0, worst: null });
    expect(summarizeAlarms([])).toEqual({ activeUnacked: 0, activeAcked: 0, returnedUnacked: 0, shelved: 0, waiting: 0, worst: null, worstActive: null });
  });
  it('keeps the four states apart; only active alarms give a card its colour', () => {
    expect(summarizeAlarms([a(3, 'unack'), a(2, 'ack'), a(1, 'rtn_unack'), a(1, 'shelved')])).toEqual({
      activeUnacked: 1,
      activeAcked: 1,
      returnedUnacked: 1,
      shelved: 1,
      waiting: 2,
      worst: 1,
      worstActive: 2,
    });
    // A tank back to normal with a returned Crítica and a shelved one is not 'Crítica' on its card.
    expect(summarizeAlarms([a(1, 'rtn_unack'), a(1, 'shelved')])).toMatchObject({ worstActive: null, returnedUnacked: 1, shelved: 1 });
  });
});

describe('alarm sound', () => {
  it('stays silent for what was there when the screen opened', () => {
    const first = nextAlarmSound(null, [a(1, 'unack', 'x')]);
    expect(first).toMatchObject({ fresh: false, ringing: new Set() });
    expect(nextAlarmSound(first, [a(1, 'unack', 'x')])).toMatchObject({ fresh: false, ringing: new Set() });
  });
  it('rings for a new unacknowledged Crítica or Alta, not for Media or Baja', () => {
    const start = nextAlarmSound(null, []);
    expect(nextAlarmSound(start, [a(2, 'unack', 'n')])).toMatchObject({ fresh: true, ringing: new Set(['n']) });
    expect(nextAlarmSound(start, [a(3, 'unack', 'm'), a(4, 'unack', 'b')])).toMatchObject({ fresh: false, ringing: new Set() });
  });
  it('keeps ringing until acknowledged; one that returns to normal and comes back rings again', () => {
    const raised = nextAlarmSound(nextAlarmSound(null, []), [a(1, 'unack', 'n'), a(2, 'unack', 'o')]);
    const later = nextAlarmSound(raised, [a(1, 'unack', 'n'), a(2, 'unack', 'o')]);
    expect(later).toMatchObject({ fresh: false, ringing: new Set(['n', 'o']) });
    const acked = nextAlarmSound(later, [a(1, 'ack', 'n'), a(2, 'unack', 'o')]);
    expect(acked).toMatchObject({ fresh: false, ringing: new Set(['o']) });
    const normal = nextAlarmSound(acked, [a(1, 'ack', 'n'), a(2, 'rtn_unack', 'o')]);
    expect(normal).toMatchObject({ fresh: false, ringing: new Set() });
    expect(nextAlarmSound(normal, [a(1, 'ack', 'n'), a(2, 'unack', 'o')])).toMatchObject({ fresh: true, ringing: new Set(['o']) });
  });
});
