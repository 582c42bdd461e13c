import type { DeviceType, WaterType } from '../devices/devices';
import { levelThresholdsOf } from '../readings/status';

/** What an alarm rule watches (docs/alarms.md "Alarm rules"). */
export const ALARM_KINDS = [
  'level_high_high',
  'level_high',
  'level_low',
  'level_low_low',
  'rate_of_rise',
  'time_to_overflow',
  'level_above_crest',
  'device_offline',
  'gate_fault',
  'command_failed',
  // Raised by a gate's schedule, not by a rule: its ruleId is the schedule's id (docs/control.md).
  'schedule_skipped',
] as const;
export type AlarmKind = (typeof ALARM_KINDS)[number];

/** The kinds each device type has, in the order people see them. */
export const ALARM_KINDS_BY_TYPE = {
  level_sensor: ['level_high_high', 'level_high', 'level_low', 'level_low_low', 'rate_of_rise', 'time_to_overflow', 'level_above_crest', 'device_offline', 'command_failed'],
  motorized_gate: ['gate_fault', 'device_offline', 'command_failed'],
} as const satisfies Record<DeviceType, readonly RuleKind[]>;

export const ALARM_KIND_LABELS: Readonly<Record<AlarmKind, string>> = {
  level_high_high: 'Nivel muy alto',
  level_high: 'Nivel alto',
  level_low: 'Nivel bajo',
  level_low_low: 'Nivel muy bajo',
  rate_of_rise: 'Subida rápida de nivel',
  time_to_overflow: 'Desborde próximo',
  level_above_crest: 'Nivel sobre vertedero',
  device_offline: 'Equipo sin señal',
  gate_fault: 'Falla de compuerta',
  command_failed: 'Comando fallido',
  schedule_skipped: 'Programación omitida',
};

/** The kinds an alarm rule can have: all but the schedules' own alarm. */
export type RuleKind = Exclude<AlarmKind, 'schedule_skipped'>;

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
  /**
   * Level kinds: the setpoint as a % of the device's maxLevel, or in metres of level
   * (`setpointM`, absolute: it does not follow the device's thresholds). A level rule has exactly
   * one of the two; the other is null. Other kinds have neither.
   */
  setpointPct?: number | null;
  setpointM?: number | null;
  /** time_to_overflow: active while the time to overflow is shorter than this many minutes. */
  setpointMin?: number;
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
export const DEFAULT_OVERFLOW_SETPOINT_MIN = 60;
/** Limits of a rule's settings (the API refuses anything outside with 422). */
export const ALARM_RULE_LIMITS = {
  deadbandPctMax: 50,
  delayMaxS: 86_400,
  windowMinS: 10,
  windowMaxS: 86_400,
  ratePerMinMax: 1000,
  /** time_to_overflow: a week of warning at most. */
  setpointMinMax: 10_080,
} as const;

/** The water kinds (docs/water.md "Alarms"): meaningful only for a level sensor with a crest. */
export const CREST_ALARM_KINDS = ['time_to_overflow', 'level_above_crest'] as const;
export type CrestAlarmKind = (typeof CREST_ALARM_KINDS)[number];
export function isCrestAlarmKind(kind: AlarmKind): kind is CrestAlarmKind {
  return (CREST_ALARM_KINDS as readonly AlarmKind[]).includes(kind);
}

/** What else a device's default rules depend on: its water (clean water watches the low levels) and its crest. */
export interface AlarmRuleDefaultsContext {
  waterType?: WaterType | null;
  /** Its current geometry has a crest (the water kinds are on). */
  hasCrest?: boolean;
}

/**
 * The rules a device gets when it is created (and every device gets for a kind it has none of):
 * docs/alarms.md's table and docs/water.md "Alarms". The high setpoints start at the device's own
 * thresholds; a clean-water sensor has the low ones on; the water kinds are on with a crest.
 */
export function defaultAlarmRules(
  type: DeviceType,
  settings: { maxLevel?: number | null; warningPct?: number | null; criticalPct?: number | null },
  context: AlarmRuleDefaultsContext = {},
): Array<{ kind: AlarmKind } & AlarmRuleSettings> {
  const { warningPct, criticalPct } = levelThresholdsOf(settings);
  const base = { deadbandPct: DEFAULT_DEADBAND_PCT, onDelayS: 0, offDelayS: 0 };
  const clean = context.waterType === 'clean';
  const crest = context.hasCrest === true;
  const rules: Record<RuleKind, AlarmRuleSettings> = {
    level_high_high: { ...base, enabled: true, priority: 1, setpointPct: criticalPct, setpointM: null },
    level_high: { ...base, enabled: true, priority: 3, setpointPct: warningPct, setpointM: null },
    level_low: { ...base, enabled: clean, priority: 3, setpointPct: 20, setpointM: null },
    level_low_low: { ...base, enabled: clean, priority: 2, setpointPct: 10, setpointM: null },
    rate_of_rise: { ...base, enabled: false, priority: 2, ratePerMin: DEFAULT_RATE_PER_MIN, windowS: DEFAULT_RATE_WINDOW_S },
    time_to_overflow: { ...base, enabled: crest, priority: 1, setpointMin: DEFAULT_OVERFLOW_SETPOINT_MIN },
    level_above_crest: { ...base, enabled: crest, priority: 1 },
    device_offline: { ...base, enabled: true, priority: 2 },
    gate_fault: { ...base, enabled: true, priority: 1 },
    command_failed: { ...base, enabled: true, priority: 3 },
  };
  return ALARM_KINDS_BY_TYPE[type].map((kind) => ({ kind, ...rules[kind] }));
}

/** A level rule's setpoint in metres of level: its own `setpointM`, or its % of maxLevel. */
export function setpointMetres(rule: Pick<AlarmRuleSettings, 'setpointPct' | 'setpointM'>, maxLevelM: number): number | undefined {
  if (rule.setpointM !== undefined && rule.setpointM !== null) return rule.setpointM;
  if (rule.setpointPct !== undefined && rule.setpointPct !== null) return (rule.setpointPct / 100) * maxLevelM;
  return undefined;
}

/**
 * Why a device's rules, taken together, are impossible; null when they are not. Highs and lows
 * are compared in metres (a rule may be set in % of `maxLevelM`, another in metres). `changed`
 * (the rule being edited) names the field a setpoint problem is reported on.
 */
export function alarmRulesProblem(
  rules: ReadonlyArray<Pick<AlarmRule, 'kind' | 'setpointPct' | 'setpointM' | 'deadbandPct'>>,
  maxLevelM: number,
  changed?: Pick<AlarmRule, 'setpointM'>,
): { field: string; reason: string } | null {
  for (const r of rules) {
    if (r.deadbandPct >= ALARM_RULE_LIMITS.deadbandPctMax) return { field: 'deadbandPct', reason: 'deadband_too_large' };
    // A level above the sensor's range is a fault, never a level: such a setpoint could not act.
    if (isLevelSetpointKind(r.kind) && r.setpointM !== undefined && r.setpointM !== null && r.setpointM >= maxLevelM) return { field: 'setpointM', reason: 'setpoint_above_max_level' };
  }
  const sp = (kind: LevelSetpointKind) => {
    const rule = rules.find((r) => r.kind === kind);
    return rule ? setpointMetres(rule, maxLevelM) : undefined;
  };
  const highs = [sp('level_high'), sp('level_high_high')].filter((v): v is number => v !== undefined);
  const lows = [sp('level_low'), sp('level_low_low')].filter((v): v is number => v !== undefined);
  // A high setpoint at or below a low one would hold both alarms at once.
  const field = changed?.setpointM !== undefined && changed.setpointM !== null ? 'setpointM' : 'setpointPct';
  if (highs.length > 0 && lows.length > 0 && Math.min(...highs) <= Math.max(...lows)) return { field, reason: 'high_not_above_low' };
  return null;
}
