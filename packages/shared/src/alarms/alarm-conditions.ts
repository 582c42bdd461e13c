import type { AlarmRuleSettings, LevelSetpointKind } from './alarm-rules';
import { DEFAULT_OVERFLOW_SETPOINT_MIN, LEVEL_SETPOINT_KINDS } from './alarm-rules';

/**
 * Whether a level alarm's condition holds for a reading, with hysteresis: it becomes active
 * beyond the setpoint (strictly), and once active stays so until the level is back past the
 * setpoint by the deadband (docs/alarms.md). Percentages are of the device's maxLevel.
 */
export function levelConditionHolds(
  kind: LevelSetpointKind,
  rule: Pick<AlarmRuleSettings, 'setpointPct' | 'setpointM' | 'deadbandPct'>,
  valueM: number,
  maxLevelM: number,
  wasActive: boolean,
): boolean {
  const pct = (valueM / maxLevelM) * 100;
  // A setpoint in metres is judged as its % of maxLevel, so that the deadband (in %) applies alike.
  const setpoint = rule.setpointM !== undefined && rule.setpointM !== null ? (rule.setpointM / maxLevelM) * 100 : (rule.setpointPct ?? 0);
  if (LEVEL_SETPOINT_KINDS[kind] === 'above') return wasActive ? pct >= setpoint - rule.deadbandPct : pct > setpoint;
  return wasActive ? pct <= setpoint + rule.deadbandPct : pct < setpoint;
}

/**
 * The level's rise in metres per minute over the last `windowS` seconds, from the first and
 * last readings inside the window; null when they span less than half of it (docs/alarms.md).
 */
export function riseRatePerMin(readings: ReadonlyArray<{ tsMs: number; value: number }>, windowS: number, nowTsMs: number): number | null {
  const from = nowTsMs - windowS * 1000;
  const inWindow = readings.filter((r) => r.tsMs >= from && r.tsMs <= nowTsMs);
  if (inWindow.length < 2) return null;
  const first = inWindow[0]!;
  const last = inWindow[inWindow.length - 1]!;
  const spanMs = last.tsMs - first.tsMs;
  if (spanMs < (windowS * 1000) / 2) return null;
  return ((last.value - first.value) / spanMs) * 60_000;
}

/**
 * Whether the time_to_overflow condition holds (docs/water.md "Alarms"): active while the live
 * time to overflow is shorter than `setpointMin` minutes; once active it clears only at
 * `deadbandPct` % above that, or when there is no forecast (null: stale data, no inflow).
 */
export function timeToOverflowHolds(rule: Pick<AlarmRuleSettings, 'setpointMin' | 'deadbandPct'>, timeToOverflowS: number | null, wasActive: boolean): boolean {
  if (timeToOverflowS === null) return false;
  const limitS = (rule.setpointMin ?? DEFAULT_OVERFLOW_SETPOINT_MIN) * 60;
  return wasActive ? timeToOverflowS < limitS * (1 + rule.deadbandPct / 100) : timeToOverflowS < limitS;
}
