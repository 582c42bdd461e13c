import type { DeviceType } from '../devices/devices';
import { levelThresholdsOf } from '../readings/status';

/** What an alarm rule watches (docs/alarms.md "Alarm rules"). */
export const ALARM_KINDS = [
  'level_high_high',
  'level_high',
  'level_low',
  'level_low_low',
  'rate_of_rise',
  'device_offline',
  'gate_fault',
  'command_failed',
] as const;
export type AlarmKind = (typeof ALARM_KINDS)[number];

/** The kinds each device type has, in the order people see them. */
export const ALARM_KINDS_BY_TYPE = {
  level_sensor: ['level_high_high', 'level_high', 'level_low', 'level_low_low', 'rate_of_rise', 'device_offline', 'command_failed'],
  motorized_gate: ['gate_fault', 'device_offline', 'command_failed'],
} as const satisfies Record<DeviceType, readonly AlarmKind[]>;

export const ALARM_KIND_LABELS: Readonly<Record<AlarmKind, string>> = {
  level_high_high: 'Nivel muy alto',
  level_high: 'Nivel alto',
  level_low: 'Nivel bajo',
  level_low_low: 'Nivel muy bajo',
  rate_of_rise: 'Subida rápida de nivel',
  device_offline: 'Equipo sin señal',
  gate_fault: 'Falla de compuerta',
  command_failed: 'Comando fallido',
};

/** ISA-18.2 recommends no more than four priorities; 1 is the most urgent. */
export const ALARM_PRIORITIES = [1, 2, 3, 4] as const;
export type AlarmPriority = (typeof ALARM_PRIORITIES)[number];
export const ALARM_PRIORITY_LABELS: Readonly<Record<AlarmPriority, string>> = { 1: 'Crítica', 2: 'Alta', 3: 'Media', 4: 'Baja' };

/** Kinds whose condition is the level against a setpoint: above (high) or below (low). */
export const LEVEL_SETPOINT_KINDS = { level_high_high: 'above', level_high: 'above', level_low: 'below', level_low_low: 'below' } as const;
export type LevelSetpointKind = keyof typeof LEVEL_SETPOINT_KINDS;
export function isLevelSetpointKind(kind: AlarmKind): kind is LevelSetpointKind {
  return kind in LEVEL_SETPOINT_KINDS;
}

export interface AlarmRuleSettings {
  enabled: boolean;
  priority: AlarmPriority;
  /** Level kinds: % of the device's maxLevel. */
  setpointPct?: number;
  /** rate_of_rise: metres per minute. */
  ratePerMin?: number;
  /** rate_of_rise: the window the rate is computed over, seconds. */
  windowS?: number;
  /** % of maxLevel a level must move back past its setpoint before the alarm clears. */
  deadbandPct: number;
  onDelayS: number;
  offDelayS: number;
}

export interface AlarmRule extends AlarmRuleSettings {
  id: string;
  kind: AlarmKind;
}

export const DEFAULT_DEADBAND_PCT = 2;
export const DEFAULT_RATE_WINDOW_S = 120;
export const DEFAULT_RATE_PER_MIN = 0.05;
/** Limits of a rule's settings (the API refuses anything outside with 422). */
export const ALARM_RULE_LIMITS = {
  deadbandPctMax: 50,
  delayMaxS: 86_400,
  windowMinS: 10,
  windowMaxS: 86_400,
  ratePerMinMax: 1000,
} as const;

/**
 * The rules a device gets when it is created (and every device had when alarms arrived):
 * docs/alarms.md's table. The high setpoints start at the device's own thresholds.
 */
export function defaultAlarmRules(
  type: DeviceType,
  settings: { maxLevel?: number | null; warningPct?: number | null; criticalPct?: number | null },
): Array<{ kind: AlarmKind } & AlarmRuleSettings> {
  const { warningPct, criticalPct } = levelThresholdsOf(settings);
  const base = { deadbandPct: DEFAULT_DEADBAND_PCT, onDelayS: 0, offDelayS: 0 };
  const rules: Record<AlarmKind, AlarmRuleSettings> = {
    level_high_high: { ...base, enabled: true, priority: 1, setpointPct: criticalPct },
    level_high: { ...base, enabled: true, priority: 3, setpointPct: warningPct },
    level_low: { ...base, enabled: false, priority: 3, setpointPct: 20 },
    level_low_low: { ...base, enabled: false, priority: 2, setpointPct: 10 },
    rate_of_rise: { ...base, enabled: false, priority: 2, ratePerMin: DEFAULT_RATE_PER_MIN, windowS: DEFAULT_RATE_WINDOW_S },
    device_offline: { ...base, enabled: true, priority: 2 },
    gate_fault: { ...base, enabled: true, priority: 1 },
    command_failed: { ...base, enabled: true, priority: 3 },
  };
  return ALARM_KINDS_BY_TYPE[type].map((kind) => ({ kind, ...rules[kind] }));
}

/** Why a device's rules, taken together, are impossible; null when they are not. */
export function alarmRulesProblem(rules: ReadonlyArray<Pick<AlarmRule, 'kind' | 'setpointPct' | 'deadbandPct'>>): { field: string; reason: string } | null {
  for (const r of rules) {
    if (r.deadbandPct >= ALARM_RULE_LIMITS.deadbandPctMax) return { field: 'deadbandPct', reason: 'deadband_too_large' };
  }
  const sp = (kind: AlarmKind) => rules.find((r) => r.kind === kind)?.setpointPct;
  const highs = [sp('level_high'), sp('level_high_high')].filter((v): v is number => v !== undefined);
  const lows = [sp('level_low'), sp('level_low_low')].filter((v): v is number => v !== undefined);
  // A high setpoint at or below a low one would hold both alarms at once.
  if (highs.length > 0 && lows.length > 0 && Math.min(...highs) <= Math.max(...lows)) return { field: 'setpointPct', reason: 'high_not_above_low' };
  return null;
}
