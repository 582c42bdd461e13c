import { describe, expect, it } from 'vitest';
import { levelConditionHolds, riseRatePerMin, timeToOverflowHolds } from './alarm-conditions';
import { aboveCrestAlarmMessage, eventAlarmMessage, levelAlarmMessage, riseAlarmMessage, timeToOverflowAlarmMessage } from './alarm-messages';
import { ALARM_STATES, type AlarmState } from './alarm-states';
import { nextAlarmState, type AlarmEvent } from './alarm-transitions';

describe('ISA-18.2 transitions (docs/alarms.md)', () => {
  it.each<[AlarmState, AlarmEvent, AlarmState | null]>([
    ['rtn_unack', 'condition_on', 'unack'],
    ['unack', 'condition_on', null],
    ['ack', 'condition_on', null],
    ['ack', 'condition_off', 'cleared'],
    ['unack', 'condition_off', 'rtn_unack'],
    ['unack', 'ack', 'ack'],
    ['rtn_unack', 'ack', 'cleared'],
    ['ack', 'ack', null],
    ['cleared', 'ack', null],
    ['suppressed', 'ack', null],
    ['shelved', 'ack', null],
    ['ack', 'shelve', 'shelved'],
    ['rtn_unack', 'shelve', 'shelved'],
    ['cleared', 'shelve', null],
    ['shelved', 'unshelve_active', 'unack'],
    ['shelved', 'unshelve_inactive', 'cleared'],
    ['ack', 'unshelve_active', null],
    ['shelved', 'suppress', 'suppressed'],
    ['cleared', 'suppress', null],
  ])('%s + %s → %s', (state, event, next) => {
    expect(nextAlarmState(state, event)).toBe(next);
  });

  it('final states take no event', () => {
    const events: AlarmEvent[] = ['condition_on', 'condition_off', 'ack', 'shelve', 'unshelve_active', 'unshelve_inactive', 'suppress'];
    for (const state of ['cleared', 'suppressed'] as const) for (const e of events) expect(nextAlarmState(state, e)).toBeNull();
    expect(ALARM_STATES).toHaveLength(6);
  });
});

describe('level conditions with deadband', () => {
  const rule = { setpointPct: 85, deadbandPct: 2 };
  it('high: active strictly above the setpoint, clears only below setpoint − deadband', () => {
    expect(levelConditionHolds('level_high_high', rule, 8.5, 10, false)).toBe(false);
    expect(levelConditionHolds('level_high_high', rule, 8.51, 10, false)).toBe(true);
    expect(levelConditionHolds('level_high_high', rule, 8.4, 10, true)).toBe(true); // 84 % ≥ 83 %
    expect(levelConditionHolds('level_high_high', rule, 8.29, 10, true)).toBe(false);
  });
  it('low: active strictly below, clears only above setpoint + deadband', () => {
    const low = { setpointPct: 20, deadbandPct: 2 };
    expect(levelConditionHolds('level_low', low, 2, 10, false)).toBe(false);
    expect(levelConditionHolds('level_low', low, 1.99, 10, false)).toBe(true);
    expect(levelConditionHolds('level_low', low, 2.1, 10, true)).toBe(true);
    expect(levelConditionHolds('level_low', low, 2.21, 10, true)).toBe(false);
  });
});

describe('rate of rise', () => {
  it('from the first and last readings of the window; null when they span less than half of it', () => {
    const t = 1_000_000;
    const readings = [0, 30, 60, 90, 120].map((s, i) => ({ tsMs: t + s * 1000, value: 1 + i * 0.1 }));
    expect(riseRatePerMin(readings, 120, t + 120_000)).toBeCloseTo(0.2, 6); // 0.4 m in 2 min
    expect(riseRatePerMin(readings.slice(3), 120, t + 120_000)).toBeNull(); // 30 s of 120
    expect(riseRatePerMin(readings.slice(2), 120, t + 120_000)).toBeCloseTo(0.2, 6); // 60 s: half
  });
});

describe('messages', () => {
  it('in Spanish with comma decimals', () => {
    expect(levelAlarmMessage('level_high_high', 8.734, 10)).toBe('Nivel muy alto: 8,73 m (87 % de 10,00 m)');
    expect(riseAlarmMessage(0.123, 0.05)).toBe('Subida rápida de nivel: 0,12 m/min (límite 0,05 m/min)');
    expect(eventAlarmMessage('command_failed', { command: 'abrir', status: 'timed_out' })).toBe("Comando 'abrir' sin respuesta del equipo");
    expect(eventAlarmMessage('command_failed', { command: 'cerrar', status: 'failed', text: 'motor bloqueado' })).toBe("Comando 'cerrar' fallido: motor bloqueado");
  });
});

describe('water alarm conditions (docs/water.md "Alarms")', () => {
  const rule = { setpointMin: 60, deadbandPct: 2 };
  it('time to overflow: active under setpointMin, clears deadbandPct % above it or without a forecast', () => {
    expect(timeToOverflowHolds(rule, 3599, false)).toBe(true);
    expect(timeToOverflowHolds(rule, 3600, false)).toBe(false);
    // Active: holds until 2 % above 60 min (3672 s).
    expect(timeToOverflowHolds(rule, 3671, true)).toBe(true);
    expect(timeToOverflowHolds(rule, 3672, true)).toBe(false);
    expect(timeToOverflowHolds(rule, null, true)).toBe(false);
  });
  it('a level setpoint in metres is judged like its % of maxLevel', () => {
    expect(levelConditionHolds('level_high', { setpointM: 3, setpointPct: null, deadbandPct: 2 }, 3.01, 5, false)).toBe(true);
    expect(levelConditionHolds('level_high', { setpointM: 3, setpointPct: null, deadbandPct: 2 }, 3, 5, false)).toBe(false);
    // Deadband 2 % of 5 m = 0.1 m.
    expect(levelConditionHolds('level_high', { setpointM: 3, setpointPct: null, deadbandPct: 2 }, 2.91, 5, true)).toBe(true);
    expect(levelConditionHolds('level_high', { setpointM: 3, setpointPct: null, deadbandPct: 2 }, 2.89, 5, true)).toBe(false);
  });
  it('messages in Spanish', () => {
    expect(timeToOverflowAlarmMessage(42 * 60 + 10, 60)).toBe('Desborde próximo: en ≈ 42 min (límite 60 min)');
    expect(timeToOverflowAlarmMessage(2 * 3600 + 10 * 60, 180)).toBe('Desborde próximo: en ≈ 2 h 10 min (límite 180 min)');
    expect(timeToOverflowAlarmMessage(30, 60)).toBe('Desborde próximo: en menos de 1 min (límite 60 min)');
    expect(aboveCrestAlarmMessage(9.123, 9)).toBe('Nivel sobre vertedero: 9,12 m (vertedero a 9,00 m)');
  });
});
