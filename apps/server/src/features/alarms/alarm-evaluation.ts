import {
  aboveCrestAlarmMessage,
  eventAlarmMessage,
  isAlarmOpen,
  isLevelSetpointKind,
  LEVEL_SETPOINT_KINDS,
  levelAlarmMessage,
  levelConditionHolds,
  levelThresholdsOf,
  nextAlarmState,
  riseAlarmMessage,
  riseRatePerMin,
  timeToOverflowAlarmMessage,
  timeToOverflowHolds,
  ALARM_KIND_LABELS,
  ALARM_RULE_LIMITS,
  DEFAULT_OVERFLOW_SETPOINT_MIN,
  type AlarmEvent,
  type AlarmRule,
  type Reading,
} from '@agua/shared';
import { newId } from '../../lib/ids';
import type { DeviceRecord, StoredReading } from '../devices/devices.repository';
import type { AlarmChange, AlarmRecord, Person } from './alarms.repository';

/**
 * What the alarm engine decides, without its memory or clocks: which conditions a reading sets,
 * and what an alarm becomes when it is raised or moved by an event (the ISA-18.2 states of
 * `nextAlarmState`). The engine keeps the state and applies the on/off delays around these.
 */

/** What the latest input says about one rule's condition. */
export interface ConditionInput {
  kind: AlarmRule['kind'];
  /** The condition holds (with hysteresis, before the on/off delays). */
  holds: boolean;
  value: number | string | null;
  /** The alarm message of this input, written only when an alarm needs it (formatting costs). */
  describe: () => string;
}

/**
 * A reading as the engine evaluates it: its time in epoch ms, as stored. A reading on its way to
 * the storage is evaluated as it is, without the round trip through an ISO string the API's
 * `Reading` would cost on every message.
 */
export interface EvaluatedReading {
  value: number | string | null;
  status: Reading['status'];
  tsMs: number;
}

export function storedForEvaluation(r: StoredReading): EvaluatedReading {
  return { value: r.valueNum ?? r.valueText, status: r.status, tsMs: r.tsMs };
}

export function apiForEvaluation(r: Reading): EvaluatedReading {
  return { value: r.value, status: r.status, tsMs: Date.parse(r.ts) };
}

export interface LevelSample {
  tsMs: number;
  value: number;
}

/**
 * The conditions a device's reading sets: a gate's fault, or a level against each enabled rule.
 * `heldBefore` is each rule's condition before it (hysteresis); the level joins the device's
 * history in `levels` (the rate of rise looks back over it).
 */
export function readingInputs(
  device: DeviceRecord,
  reading: EvaluatedReading,
  rules: readonly AlarmRule[],
  heldBefore: (ruleId: string) => boolean,
  levels: LevelHistory,
): ConditionInput[] {
  if (device.type === 'motorized_gate') {
    if (typeof reading.value !== 'string') return [];
    return [{ kind: 'gate_fault', holds: reading.value === 'falla', value: reading.value, describe: () => eventAlarmMessage('gate_fault') }];
  }
  if (typeof reading.value !== 'number' || reading.status === 'fault') return []; // a broken sensor is not a full tank
  const { value, tsMs } = reading;
  const { maxLevel } = levelThresholdsOf(device.settings);
  const history = levels.remember(device.id, tsMs, value);
  const inputs: ConditionInput[] = [];
  for (const rule of rules) {
    if (!rule.enabled) continue;
    const { kind } = rule;
    if (isLevelSetpointKind(kind)) {
      const holds = levelConditionHolds(kind, rule, value, maxLevel, heldBefore(rule.id));
      inputs.push({ kind, holds, value, describe: () => levelAlarmMessage(kind, value, maxLevel) });
    } else if (kind === 'rate_of_rise') {
      const rate = riseRatePerMin(history, rule.windowS ?? ALARM_RULE_LIMITS.windowMinS, tsMs);
      if (rate === null) continue; // not enough of the window yet: no judgement either way
      const limit = rule.ratePerMin ?? 0;
      inputs.push({ kind, holds: rate > limit, value, describe: () => riseAlarmMessage(rate, limit) });
    }
  }
  return inputs;
}

/**
 * What the engine reads of a level sensor's water (docs/water.md "Alarms"): a port the water
 * feature fills in at composition, so that the engine knows nothing of how figures and spills are
 * computed.
 */
export interface WaterAlarmSource {
  /** The live time to overflow, s; null without a forecast (no shape or crest, no inflow, stale data). */
  timeToOverflowS(deviceId: string): number | null;
  /** The device's open overflow event (its highest level so far, and the crest), or null. */
  openSpill(deviceId: string): { startedAtMs: number; peakLevelM: number; crestM: number } | null;
  /** Calls `listener` whenever a device's figures or spills may have changed; returns the unsubscribe. */
  onChange(listener: (deviceId: string) => void): () => void;
}

/** No water feature: no forecasts, no spills. */
export const NO_WATER: WaterAlarmSource = { timeToOverflowS: () => null, openSpill: () => null, onChange: () => () => undefined };

/** Whether the device has an enabled rule of a water kind (otherwise its water changes are not looked at). */
export function watchesWater(rules: readonly AlarmRule[]): boolean {
  return rules.some((r) => r.enabled && (r.kind === 'time_to_overflow' || r.kind === 'level_above_crest'));
}

/**
 * The conditions a level sensor's water sets (docs/water.md "Alarms"): its time to overflow
 * against each enabled time_to_overflow rule, and whether one of its overflow events is open.
 */
export function waterInputs(deviceId: string, rules: readonly AlarmRule[], water: WaterAlarmSource, heldBefore: (ruleId: string) => boolean): ConditionInput[] {
  const inputs: ConditionInput[] = [];
  for (const rule of rules) {
    if (!rule.enabled) continue;
    if (rule.kind === 'time_to_overflow') {
      const ttoS = water.timeToOverflowS(deviceId);
      const limitMin = rule.setpointMin ?? DEFAULT_OVERFLOW_SETPOINT_MIN;
      inputs.push({
        kind: rule.kind,
        holds: timeToOverflowHolds(rule, ttoS, heldBefore(rule.id)),
        value: ttoS,
        describe: () => (ttoS === null ? ALARM_KIND_LABELS.time_to_overflow : timeToOverflowAlarmMessage(ttoS, limitMin)),
      });
    } else if (rule.kind === 'level_above_crest') {
      const spill = water.openSpill(deviceId);
      inputs.push({
        kind: rule.kind,
        holds: spill !== null,
        value: spill?.peakLevelM ?? null,
        describe: () => (spill ? aboveCrestAlarmMessage(spill.peakLevelM, spill.crestM) : ALARM_KIND_LABELS.level_above_crest),
      });
    }
  }
  return inputs;
}

/**
 * The peak an open alarm shows after `value`: the lowest for a low-level rule and for the time to
 * overflow (the shortest forecast), else the highest.
 */
export function peakAfter(rule: AlarmRule, peak: number | null, value: number): number {
  const low = (isLevelSetpointKind(rule.kind) && LEVEL_SETPOINT_KINDS[rule.kind] === 'below') || rule.kind === 'time_to_overflow';
  if (peak === null) return value;
  return low ? Math.min(peak, value) : Math.max(peak, value);
}

/** A stored alarm whose condition held when it was stored (an active one); a returned one's did not. */
export function heldWhenStored(alarm: AlarmRecord): boolean {
  return alarm.state === 'unack' || alarm.state === 'ack' || (alarm.state === 'shelved' && alarm.clearedAtMs === null);
}

/** A new alarm of the rule, unacknowledged. */
export function raisedAlarm(deviceId: string, rule: AlarmRule, value: number | string | null, message: string, now: number): AlarmChange {
  const alarm: AlarmRecord = {
    id: newId('alm'),
    deviceId,
    ruleId: rule.id,
    kind: rule.kind,
    priority: rule.priority,
    state: 'unack',
    raisedAtMs: now,
    ackedAtMs: null,
    ackedBy: null,
    ackComment: null,
    clearedAtMs: null,
    shelvedUntilMs: null,
    shelvedBy: null,
    shelveComment: null,
    value,
    peakValue: typeof value === 'number' ? value : null,
    message,
    endedAtMs: null,
  };
  return { alarm, transition: { atMs: now, from: null, to: 'unack', by: null, comment: null }, isNew: true };
}

/** The alarm moved by an event, with its transition; null when the event does not move it from its state. */
export function movedAlarm(
  alarm: AlarmRecord,
  event: AlarmEvent,
  by: Person | null,
  comment: string | null,
  changes: Partial<AlarmRecord>,
  now: number,
): AlarmChange | null {
  const to = nextAlarmState(alarm.state, event);
  if (!to) return null;
  const next: AlarmRecord = { ...alarm, ...changes, state: to, endedAtMs: isAlarmOpen(to) ? null : now };
  if (to !== 'shelved') Object.assign(next, { shelvedUntilMs: alarm.state === 'shelved' ? null : next.shelvedUntilMs });
  return { alarm: next, transition: { atMs: now, from: alarm.state, to, by, comment }, isNew: false };
}

/** Level readings kept per device for the rate of rise (the longest window allowed). */
const MAX_LEVEL_SAMPLES = 2_000;

/** Each device's recent levels, as far back as the longest rate-of-rise window. */
export class LevelHistory {
  private readonly byDevice = new Map<string, LevelSample[]>();

  remember(deviceId: string, tsMs: number, value: number): readonly LevelSample[] {
    let list = this.byDevice.get(deviceId);
    if (!list) {
      list = [];
      this.byDevice.set(deviceId, list);
    }
    list.push({ tsMs, value });
    const oldest = tsMs - ALARM_RULE_LIMITS.windowMaxS * 1000;
    while (list.length > MAX_LEVEL_SAMPLES || (list.length > 0 && list[0]!.tsMs < oldest)) list.shift();
    return list;
  }

  forget(deviceId: string): void {
    this.byDevice.delete(deviceId);
  }
}
