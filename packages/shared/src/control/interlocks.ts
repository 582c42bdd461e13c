import type { AlarmKind } from '../alarms/alarm-rules';
import type { GateState } from '../devices/devices';

/**
 * Supervisory interlocks (permissives) in front of gate commands (docs/control.md). The verdict
 * and its Spanish reasons are computed here, from facts the caller gathers, so that the server's
 * check at submit, the permissive check before the click and the screens say the same thing.
 */

export const INTERLOCK_MODES = ['block', 'confirm', 'reauth', 'two_person'] as const;
export type InterlockMode = (typeof INTERLOCK_MODES)[number];

/** Strictness of a failed interlock's demand: the verdict's mode is the strictest one. */
const STRICTNESS: Readonly<Record<InterlockMode, number>> = { block: 4, two_person: 3, reauth: 2, confirm: 1 };

export const INTERLOCK_MODE_LABELS: Readonly<Record<InterlockMode, string>> = {
  block: 'Bloquear',
  confirm: 'Pedir comentario',
  reauth: 'Pedir contraseña',
  two_person: 'Aprobación de otra persona',
};

/** The first words of a reason, by the mode of the interlock that failed. */
const REASON_PREFIX: Readonly<Record<InterlockMode, string>> = {
  block: 'Bloqueado',
  confirm: 'Requiere comentario',
  reauth: 'Requiere contraseña',
  two_person: 'Requiere aprobación',
};

export const LEVEL_OPS = ['<', '<=', '>', '>='] as const;
export type LevelOp = (typeof LEVEL_OPS)[number];
export const INTERLOCK_CONDITION_KINDS = ['level', 'alarm', 'gate_state', 'online'] as const;
export type InterlockConditionKind = (typeof INTERLOCK_CONDITION_KINDS)[number];

export const INTERLOCK_LIMITS = {
  nameMax: 100,
  conditionsMin: 1,
  conditionsMax: 10,
  commentMax: 500,
  bypassMinutesMin: 1,
  bypassMinutesMax: 720,
  /** A two-person command waits this long for its approval (APPROVAL_TIMEOUT_S). */
  approvalTimeoutS: 600,
  /** How many interlocks one device's command may have: enough for any plant, bounded for every check. */
  perCommandMax: 20,
} as const;

export interface LevelCondition {
  kind: 'level';
  deviceId: string;
  op: LevelOp;
  valueM?: number;
  pct?: number;
  maxAgeS?: number;
}
export interface AlarmCondition {
  kind: 'alarm';
  deviceId: string;
  alarmKind?: AlarmKind;
  priorityAtMost?: number;
  active: false;
}
export interface GateStateCondition {
  kind: 'gate_state';
  deviceId: string;
  in: GateState[];
}
export interface OnlineCondition {
  kind: 'online';
  deviceId: string;
}
export type InterlockCondition = LevelCondition | AlarmCondition | GateStateCondition | OnlineCondition;

/** What an interlock's conditions are judged on: a device as the server knows it now. */
export interface ConditionDevice {
  name: string;
  online: boolean;
  enabled: boolean;
  maxLevel: number | null;
  offlineAfterS: number;
  /** The current reading: a level in m, or a gate state; null when none. */
  reading: { value: number | string; status: string; tsMs: number } | null;
  gateState: GateState | null;
}
/** An alarm that is active for a permissive: `unack`, `ack`, or `shelved` while its condition holds. */
export interface ConditionAlarm {
  kind: AlarmKind;
  priority: number;
  message: string;
}
export interface ConditionFacts {
  device(id: string): ConditionDevice | undefined;
  activeAlarms(deviceId: string): readonly ConditionAlarm[];
  nowMs: number;
}

/** Spanish metres with two decimals: 4,62 m. */
export function formatMetres(m: number): string {
  return `${m.toFixed(2).replace('.', ',')} m`;
}

/** The level in metres a level condition compares with. */
export function levelLimitM(c: LevelCondition, maxLevel: number | null): number | null {
  if (c.valueM !== undefined) return c.valueM;
  if (c.pct !== undefined && maxLevel !== null) return (c.pct * maxLevel) / 100;
  return null;
}

/** The failing side of each comparison, as the reason says it. */
const NEGATED: Readonly<Record<LevelOp, { word: 'alto' | 'bajo'; sign: string }>> = {
  '<': { word: 'alto', sign: '≥' },
  '<=': { word: 'alto', sign: '>' },
  '>': { word: 'bajo', sign: '≤' },
  '>=': { word: 'bajo', sign: '<' },
};

function compare(v: number, op: LevelOp, limit: number): boolean {
  switch (op) {
    case '<':
      return v < limit;
    case '<=':
      return v <= limit;
    case '>':
      return v > limit;
    case '>=':
      return v >= limit;
  }
}

/** Whether a condition holds now; when it does not, why, in words (without the mode's prefix). */
export function judgeCondition(c: InterlockCondition, facts: ConditionFacts): { holds: true } | { holds: false; why: string } {
  const d = facts.device(c.deviceId);
  const name = d?.name ?? c.deviceId;
  switch (c.kind) {
    case 'level': {
      const r = d?.reading;
      const maxAgeS = c.maxAgeS ?? d?.offlineAfterS ?? 0;
      const limit = levelLimitM(c, d?.maxLevel ?? null);
      const fresh = r && typeof r.value === 'number' && r.status !== 'fault' && facts.nowMs - r.tsMs <= maxAgeS * 1000;
      if (!d || !fresh || limit === null) return { holds: false, why: `${name} sin lectura válida reciente` };
      const v = r.value as number;
      if (compare(v, c.op, limit)) return { holds: true };
      const { word, sign } = NEGATED[c.op];
      return { holds: false, why: `${name} en nivel ${word} (${formatMetres(v)} ${sign} ${formatMetres(limit)})` };
    }
    case 'alarm': {
      const hit = facts
        .activeAlarms(c.deviceId)
        .find((a) => (c.alarmKind === undefined || a.kind === c.alarmKind) && (c.priorityAtMost === undefined || a.priority <= c.priorityAtMost));
      return hit ? { holds: false, why: `${name} con alarma activa: ${hit.message}` } : { holds: true };
    }
    case 'gate_state': {
      const state = d && d.online && d.enabled ? d.gateState : null;
      if (state !== null && c.in.includes(state)) return { holds: true };
      return { holds: false, why: `${name} ${state ?? 'en estado desconocido'}, se requiere ${c.in.join(' o ')}` };
    }
    case 'online':
      return d && d.online && d.enabled ? { holds: true } : { holds: false, why: `${name} desconectado` };
  }
}

/** An interlock as the verdict needs it. */
export interface InterlockRule {
  id: string;
  name: string;
  mode: InterlockMode;
  version: number;
  enabled: boolean;
  conditions: InterlockCondition[];
  bypass: { until: string } | null;
}

export interface InterlockReason {
  interlockId: string;
  name: string;
  mode: InterlockMode;
  deviceId: string;
  kind: InterlockConditionKind;
  message: string;
}

/** A failed interlock a command passed: by its demand, or by a bypass. */
export interface InterlockOverride {
  interlockId: string;
  version: number;
  mode: InterlockMode | 'bypass';
}

export interface InterlockVerdict {
  /** False only when a `block` interlock fails. */
  allowed: boolean;
  /** The strictest failed mode; null when every interlock holds. */
  mode: InterlockMode | null;
  requires: { comment: boolean; password: boolean; approval: boolean };
  reasons: InterlockReason[];
  bypassed: Array<{ interlockId: string; name: string; until: string }>;
  /** What the command passes if it goes: the failed interlocks, by demand or bypass. */
  overrides: InterlockOverride[];
  /** The interlocks that failed (not bypassed): a refusal names them in the audit trail. */
  failedIds: string[];
}

export function isBypassed(rule: Pick<InterlockRule, 'bypass'>, nowMs: number): boolean {
  return rule.bypass !== null && Date.parse(rule.bypass.until) > nowMs;
}

/**
 * The verdict of a device's command's interlocks: disabled ones are ignored, bypassed ones hold,
 * each failed one adds its mode's demand; reasons one per failed condition, the strictest first.
 */
export function judgeInterlocks(rules: readonly InterlockRule[], facts: ConditionFacts): InterlockVerdict {
  const reasons: InterlockReason[] = [];
  const overrides: InterlockOverride[] = [];
  const bypassed: InterlockVerdict['bypassed'] = [];
  const failedIds: string[] = [];
  let mode: InterlockMode | null = null;
  for (const rule of rules) {
    if (!rule.enabled) continue;
    const failures = rule.conditions.flatMap((c) => {
      const j = judgeCondition(c, facts);
      return j.holds ? [] : [{ c, why: j.why }];
    });
    if (isBypassed(rule, facts.nowMs)) {
      bypassed.push({ interlockId: rule.id, name: rule.name, until: rule.bypass!.until });
      if (failures.length > 0) overrides.push({ interlockId: rule.id, version: rule.version, mode: 'bypass' });
      continue;
    }
    if (failures.length === 0) continue;
    failedIds.push(rule.id);
    overrides.push({ interlockId: rule.id, version: rule.version, mode: rule.mode });
    if (mode === null || STRICTNESS[rule.mode] > STRICTNESS[mode]) mode = rule.mode;
    for (const { c, why } of failures) {
      reasons.push({ interlockId: rule.id, name: rule.name, mode: rule.mode, deviceId: c.deviceId, kind: c.kind, message: `${REASON_PREFIX[rule.mode]}: ${why}` });
    }
  }
  reasons.sort((a, b) => STRICTNESS[b.mode] - STRICTNESS[a.mode]);
  const failedModes = new Set(overrides.map((o) => o.mode));
  return {
    allowed: !failedModes.has('block'),
    mode,
    requires: { comment: failedModes.has('confirm'), password: failedModes.has('reauth'), approval: failedModes.has('two_person') },
    reasons,
    bypassed,
    overrides,
    failedIds,
  };
}
