import { describe, expect, it } from 'vitest';
import { ALARM_KINDS_BY_TYPE, alarmRulesProblem, defaultAlarmRules } from './alarm-rules';

describe('default alarm rules (docs/alarms.md table)', () => {
  it('a level sensor: HH and H on at its own thresholds, L and LL off at 20 / 10 %, rate off, offline and command on', () => {
    const rules = Object.fromEntries(defaultAlarmRules('level_sensor', { maxLevel: 5, warningPct: 55, criticalPct: 90 }).map((r) => [r.kind, r]));
    expect(Object.keys(rules)).toEqual([...ALARM_KINDS_BY_TYPE.level_sensor]);
    expect(rules.level_high_high).toMatchObject({ enabled: true, priority: 1, setpointPct: 90, deadbandPct: 2, onDelayS: 0, offDelayS: 0 });
    expect(rules.level_high).toMatchObject({ enabled: true, priority: 3, setpointPct: 55 });
    expect(rules.level_low).toMatchObject({ enabled: false, priority: 3, setpointPct: 20 });
    expect(rules.level_low_low).toMatchObject({ enabled: false, priority: 2, setpointPct: 10 });
    expect(rules.rate_of_rise).toMatchObject({ enabled: false, priority: 2, ratePerMin: 0.05, windowS: 120 });
    expect(rules.device_offline).toMatchObject({ enabled: true, priority: 2 });
    expect(rules.command_failed).toMatchObject({ enabled: true, priority: 3 });
  });

  it('without thresholds of its own: 85 % and 60 %', () => {
    const rules = defaultAlarmRules('level_sensor', {});
    expect(rules.find((r) => r.kind === 'level_high_high')?.setpointPct).toBe(85);
    expect(rules.find((r) => r.kind === 'level_high')?.setpointPct).toBe(60);
  });

  it('a gate: fault (critical), offline and failed command, no level rules', () => {
    expect(defaultAlarmRules('motorized_gate', {}).map((r) => [r.kind, r.priority, r.enabled])).toEqual([
      ['gate_fault', 1, true],
      ['device_offline', 2, true],
      ['command_failed', 3, true],
    ]);
  });
});

describe('impossible rule sets', () => {
  const rules = (over: Record<string, { setpointPct?: number; deadbandPct?: number }>) =>
    defaultAlarmRules('level_sensor', {}).map((r) => ({ ...r, ...over[r.kind] }));

  it('the defaults are possible', () => {
    expect(alarmRulesProblem(rules({}))).toBeNull();
  });
  it('a high setpoint at or below a low one', () => {
    expect(alarmRulesProblem(rules({ level_high: { setpointPct: 20 } }))).toEqual({ field: 'setpointPct', reason: 'high_not_above_low' });
    expect(alarmRulesProblem(rules({ level_low: { setpointPct: 70 } }))).toEqual({ field: 'setpointPct', reason: 'high_not_above_low' });
    expect(alarmRulesProblem(rules({ level_low: { setpointPct: 59.9 } }))).toBeNull();
  });
  it('a deadband of 50 % or more', () => {
    expect(alarmRulesProblem(rules({ level_high: { deadbandPct: 50 } }))).toEqual({ field: 'deadbandPct', reason: 'deadband_too_large' });
    expect(alarmRulesProblem(rules({ level_high: { deadbandPct: 49.9 } }))).toBeNull();
  });
});
