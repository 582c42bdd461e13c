import {
  DEVICE_COMMANDS,
  INTERLOCK_LIMITS,
  type AlarmKind,
  type Device,
  type DeviceType,
  type GateState,
  type Interlock,
  type InterlockCondition,
  type InterlockConditionKind,
  type InterlockCreate,
  type InterlockMode,
  type InterlockPatch,
  type LevelOp,
} from '@agua/shared';

/** One row of the conditions builder, as typed (numbers stay text until sent). */
export interface ConditionDraft {
  /** A stable React key for the row. */
  key: string;
  kind: InterlockConditionKind;
  deviceId: string;
  op: LevelOp;
  value: string;
  unit: 'm' | 'pct';
  maxAgeS: string;
  alarmKind: AlarmKind | '';
  priorityAtMost: string;
  states: GateState[];
}

export interface InterlockFormValues {
  deviceId: string;
  command: string;
  name: string;
  mode: InterlockMode;
  enabled: boolean;
  conditions: ConditionDraft[];
}

/** Field keys of the form: 'name', 'conditions', 'conditions.0.value'…; the DOM id is `ilk-` + the key with dots as dashes. */
export type InterlockFieldErrors = Partial<Record<string, string>>;

export const FORM_ID = 'ilk';
export const fieldId = (key: string) => `${FORM_ID}-${key.replaceAll('.', '-')}`;

let nextKey = 0;
const newKey = () => `c${(nextKey += 1)}`;

/** Which device types a condition kind may name (the server refuses the others). */
export const KIND_DEVICE_TYPES: Readonly<Record<InterlockConditionKind, readonly DeviceType[]>> = {
  level: ['level_sensor'],
  gate_state: ['motorized_gate'],
  alarm: ['level_sensor', 'motorized_gate'],
  online: ['level_sensor', 'motorized_gate'],
};

export function fitsKind(kind: InterlockConditionKind, type: DeviceType | undefined): boolean {
  return type !== undefined && KIND_DEVICE_TYPES[kind].includes(type);
}

/** The commands an interlock may guard: the device's, never 'detener' (stopping a gate is the safe act). */
export function guardableCommands(type: DeviceType | undefined): string[] {
  return type ? (DEVICE_COMMANDS[type] as readonly string[]).filter((c) => c !== 'detener') : [];
}

export function newCondition(kind: InterlockConditionKind = 'level', deviceId = ''): ConditionDraft {
  return { key: newKey(), kind, deviceId, op: '<', value: '', unit: 'm', maxAgeS: '', alarmKind: '', priorityAtMost: '', states: [] };
}

export function newInterlockValues(deviceId = '', command = ''): InterlockFormValues {
  return { deviceId, command, name: '', mode: 'block', enabled: true, conditions: [newCondition()] };
}

/** A different kind keeps the device only when it fits the kind; the kind's own fields start afresh. */
export function changeKind(row: ConditionDraft, kind: InterlockConditionKind, typeOf: (id: string) => DeviceType | undefined): ConditionDraft {
  return { ...newCondition(kind, fitsKind(kind, typeOf(row.deviceId)) ? row.deviceId : ''), key: row.key };
}

const text = (n: number | undefined) => (n === undefined ? '' : String(n).replace('.', ','));

function toDraft(c: InterlockCondition): ConditionDraft {
  const row = newCondition(c.kind, c.deviceId);
  switch (c.kind) {
    case 'level':
      return { ...row, op: c.op, value: text(c.valueM ?? c.pct), unit: c.pct !== undefined && c.valueM === undefined ? 'pct' : 'm', maxAgeS: text(c.maxAgeS) };
    case 'alarm':
      return { ...row, alarmKind: c.alarmKind ?? '', priorityAtMost: c.priorityAtMost === undefined ? '' : String(c.priorityAtMost) };
    case 'gate_state':
      return { ...row, states: [...c.in] };
    case 'online':
      return row;
  }
}

export function fromInterlock(i: Interlock): InterlockFormValues {
  return { deviceId: i.deviceId, command: i.command, name: i.name, mode: i.mode, enabled: i.enabled, conditions: i.conditions.map(toDraft) };
}

/** A decimal as people type it here: '4,25' or '4.25'. */
export function parseDecimal(value: string): number | null {
  const t = value.trim().replace(',', '.');
  if (!/^-?\d+(\.\d+)?$/.test(t)) return null;
  return Number(t);
}

function toCondition(row: ConditionDraft, errors: InterlockFieldErrors, at: string): InterlockCondition | null {
  if (!row.deviceId) errors[`${at}.deviceId`] = 'Elija un dispositivo.';
  switch (row.kind) {
    case 'level': {
      const value = parseDecimal(row.value);
      if (value === null) errors[`${at}.value`] = row.unit === 'm' ? 'Escriba un nivel en metros, p. ej. 4,25.' : 'Escriba un porcentaje, p. ej. 85.';
      const age = row.maxAgeS.trim() === '' ? undefined : /^\d+$/.test(row.maxAgeS.trim()) ? Number(row.maxAgeS.trim()) : null;
      if (age === null) errors[`${at}.maxAgeS`] = 'Un número entero de segundos, o vacío.';
      if (value === null || age === null) return null;
      return { kind: 'level', deviceId: row.deviceId, op: row.op, ...(row.unit === 'm' ? { valueM: value } : { pct: value }), ...(age !== undefined ? { maxAgeS: age } : {}) };
    }
    case 'alarm':
      return {
        kind: 'alarm',
        deviceId: row.deviceId,
        active: false,
        ...(row.alarmKind ? { alarmKind: row.alarmKind } : {}),
        ...(row.priorityAtMost ? { priorityAtMost: Number(row.priorityAtMost) } : {}),
      };
    case 'gate_state':
      if (row.states.length === 0) errors[`${at}.in`] = 'Marque al menos un estado.';
      return { kind: 'gate_state', deviceId: row.deviceId, in: row.states };
    case 'online':
      return { kind: 'online', deviceId: row.deviceId };
  }
}

/**
 * What the form can check by itself: every field filled in and numbers that are numbers. The
 * limits of the values (a level between 0 and 1000 m…) are the server's, which answers 422
 * INTERLOCK_INVALID at the field.
 */
export function validateInterlock(values: InterlockFormValues): { input: InterlockCreate } | { errors: InterlockFieldErrors } {
  const errors: InterlockFieldErrors = {};
  if (!values.deviceId) errors.deviceId = 'Elija el dispositivo que recibe el comando.';
  if (!values.command) errors.command = 'Elija el comando.';
  const name = values.name.trim();
  if (name.length === 0) errors.name = 'Escriba un nombre.';
  else if (name.length > INTERLOCK_LIMITS.nameMax) errors.name = `Como mucho ${INTERLOCK_LIMITS.nameMax} caracteres.`;
  const n = values.conditions.length;
  if (n < INTERLOCK_LIMITS.conditionsMin || n > INTERLOCK_LIMITS.conditionsMax) errors.conditions = `Entre ${INTERLOCK_LIMITS.conditionsMin} y ${INTERLOCK_LIMITS.conditionsMax} condiciones.`;
  const conditions = values.conditions.map((row, i) => toCondition(row, errors, `conditions.${i}`));
  if (Object.keys(errors).length > 0) return { errors };
  return { input: { deviceId: values.deviceId, command: values.command, name, mode: values.mode, enabled: values.enabled, conditions: conditions as InterlockCondition[] } };
}

/** A PATCH of everything editable (the device is not), made on the version the form was read at. */
export function toPatch(input: InterlockCreate, version: number): InterlockPatch {
  return { version, command: input.command, name: input.name, mode: input.mode, enabled: input.enabled ?? true, conditions: input.conditions };
}

/**
 * The form field a server's 422 INTERLOCK_INVALID `{field}` names: 'conditions[2].valueM' is the
 * third row's value (in m or %), 'name' the name. Unknown fields go above the buttons (null).
 */
export function formFieldOf(serverField: unknown): string | null {
  if (typeof serverField !== 'string') return null;
  if (['deviceId', 'command', 'name', 'mode', 'enabled', 'conditions'].includes(serverField)) return serverField;
  const m = /^conditions\[(\d+)\]\.(deviceId|kind|valueM|pct|maxAgeS|alarmKind|priorityAtMost|in)$/.exec(serverField);
  if (!m) return null;
  const part = m[2] === 'valueM' || m[2] === 'pct' ? 'value' : m[2];
  return `conditions.${m[1]}.${part}`;
}

/** The order errors are focused in: the form's top to bottom. */
export function fieldOrder(values: InterlockFormValues): string[] {
  return [
    'deviceId',
    'command',
    'name',
    'mode',
    'conditions',
    ...values.conditions.flatMap((_, i) => ['kind', 'deviceId', 'value', 'maxAgeS', 'alarmKind', 'priorityAtMost', 'in'].map((f) => `conditions.${i}.${f}`)),
  ];
}

/** Devices a condition row may name, by name. */
export function devicesForKind(devices: readonly Device[], kind: InterlockConditionKind): Device[] {
  return devices.filter((d) => fitsKind(kind, d.type)).sort((a, b) => a.name.localeCompare(b.name, 'es'));
}
