import { describe, expect, it } from 'vitest';
import { ALARM_KINDS_BY_TYPE, alarmRulesProblem, defaultAlarmRules } from './alarm-rules';

describe('default alarm rules (docs/alarms.md table)', () => {
  it('a level sensor: HH and H on at its own thresholds, L and LL off at 20 / 10 %, rate off, water kinds off without a crest, offline and command on', () => {
    const rules = Object.fromEntries(defaultAlarmRules('level_sensor', { maxLevel: 5, warningPct: 55, criticalPct: 90 }).map((r) => [r.kind, r]));
    expect(Object.keys(rules)).toEqual([...ALARM_KINDS_BY_TYPE.level_sensor]);
    expect(rules.level_high_high).toMatchObject({ enabled: true, priority: 1, setpointPct: 90, deadbandPct: 2, onDelayS: 0, offDelayS: 0 });
    expect(rules.level_high).toMatchObject({ enabled: true, priority: 3, setpointPct: 55 });
    expect(rules.level_low).toMatchObject({ enabled: false, priority: 3, setpointPct: 20 });
    expect(rules.level_low_low).toMatchObject({ enabled: false, priority: 2, setpointPct: 10 });
    expect(rules.rate_of_rise).toMatchObject({ enabled: false, priority: 2, ratePerMin: 0.05, windowS: 120 });
    expect(rules.time_to_overflow).toMatchObject({ enabled: false, priority: 1, setpointMin: 60 });
    expect(rules.level_above_crest).toMatchObject({ enabled: false, priority: 1 });
    expect(rules.device_offline).toMatchObject({ enabled: true, priority: 2 });
    expect(rules.command_failed).toMatchObject({ enabled: true, priority: 3 });
  });

  it('with a crest the water kinds are on; clean water has L and LL on (docs/water.md "Alarms")', () => {
    const on = (context: Parameters<typeof defaultAlarmRules>[2]) =>
      defaultAlarmRules('level_sensor', {}, context).filter((r) => r.enabled).map((r) => r.kind);
    expect(on({ hasCrest: true, waterType: 'residual' })).toEqual(['level_high_high', 'level_high', 'time_to_overflow', 'level_above_crest', 'device_offline', 'command_failed']);
    expect(on({ waterType: 'clean' })).toEqual(['level_high_high', 'level_high', 'level_low', 'level_low_low', 'device_offline', 'command_failed']);
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
  const rules = (over: Record<string, { setpointPct?: number | null; setpointM?: number | null; deadbandPct?: number }>) =>
    defaultAlarmRules('level_sensor', {}).map((r) => ({ ...r, ...over[r.kind] }));

  it('the defaults are possible', () => {
    expect(alarmRulesProblem(rules({}), 10)).toBeNull();
  });
  it('a high setpoint at or below a low one', () => {
    expect(alarmRulesProblem(rules({ level_high: { setpointPct: 20 } }), 10)).toEqual({ field: 'setpointPct', reason: 'high_not_above_low' });
    expect(alarmRulesProblem(rules({ level_low: { setpointPct: 70 } }), 10)).toEqual({ field: 'setpointPct', reason: 'high_not_above_low' });
    expect(alarmRulesProblem(rules({ level_low: { setpointPct: 59.9 } }), 10)).toBeNull();
  });
  it('highs and lows are compared in metres when one is set in metres', () => {
    // maxLevel 10: the high at 60 % is 6 m.
    expect(alarmRulesProblem(rules({ level_low: { setpointM: 6, setpointPct: null } }), 10)).toEqual({ field: 'setpointPct', reason: 'high_not_above_low' });
    expect(alarmRulesProblem(rules({ level_low: { setpointM: 5.9, setpointPct: null } }), 10)).toBeNull();
    expect(alarmRulesProblem(rules({ level_high: { setpointM: 2, setpointPct: null } }), 10, { setpointM: 2 })).toEqual({ field: 'setpointM', reason: 'high_not_above_low' });
    expect(alarmRulesProblem(rules({ level_high_high: { setpointM: 10, setpointPct: null } }), 10)).toEqual({ field: 'setpointM', reason: 'setpoint_above_max_level' });
  });
  it('a deadband of 50 % or more', () => {
    expect(alarmRulesProblem(rules({ level_high: { deadbandPct: 50 } }), 10)).toEqual({ field: 'deadbandPct', reason: 'deadband_too_large' });
    expect(alarmRulesProblem(rules({ level_high: { deadbandPct: 49.9 } }), 10)).toBeNull();
  });
});
