import { describe, expect, it } from 'vitest';
import { levelConditionHolds, riseRatePerMin } from './alarm-conditions';
import { eventAlarmMessage, levelAlarmMessage, riseAlarmMessage } from './alarm-messages';
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
