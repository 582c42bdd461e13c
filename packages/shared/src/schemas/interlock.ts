import { Type, type Static } from '@sinclair/typebox';
import { ALARM_KINDS } from '../alarms/alarm-rules';
import { INTERLOCK_CONDITION_KINDS, INTERLOCK_MODES, LEVEL_OPS } from '../control/interlocks';
import { GATE_STATES } from '../devices/devices';
import { IsoDateTime, Literals } from './common';

/** docs/control.md "Interlocks". Shapes are checked here (400); values by the server (422 INTERLOCK_INVALID). */
export const InterlockModeSchema = Literals(INTERLOCK_MODES);
const DeviceRef = Type.String({ minLength: 1, maxLength: 64 });

export const InterlockConditionSchema = Type.Union(
  [
    Type.Object(
      {
        kind: Type.Literal('level'),
        deviceId: DeviceRef,
        op: Literals(LEVEL_OPS),
        valueM: Type.Optional(Type.Number({ description: 'metres of level; or pct, not both' })),
        pct: Type.Optional(Type.Number({ description: '% of maxLevel; or valueM, not both' })),
        maxAgeS: Type.Optional(Type.Integer({ description: "an older reading does not hold (default: the device's offlineAfterS)" })),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        kind: Type.Literal('alarm'),
        deviceId: DeviceRef,
        alarmKind: Type.Optional(Literals(ALARM_KINDS)),
        priorityAtMost: Type.Optional(Type.Integer()),
        active: Type.Literal(false),
      },
      { additionalProperties: false },
    ),
    Type.Object({ kind: Type.Literal('gate_state'), deviceId: DeviceRef, in: Type.Array(Literals(GATE_STATES), { maxItems: GATE_STATES.length }) }, { additionalProperties: false }),
    Type.Object({ kind: Type.Literal('online'), deviceId: DeviceRef }, { additionalProperties: false }),
  ],
  { title: 'InterlockCondition' },
);

const PersonSchema = Type.Object({ id: Type.String(), username: Type.String(), name: Type.String() });

export const InterlockBypassSchema = Type.Object({ until: IsoDateTime, by: PersonSchema, comment: Type.String() }, { title: 'InterlockBypass' });

export const InterlockSchema = Type.Object(
  {
    id: Type.String(),
    deviceId: Type.String(),
    command: Type.String(),
    name: Type.String(),
    conditions: Type.Array(InterlockConditionSchema),
    mode: InterlockModeSchema,
    enabled: Type.Boolean(),
    version: Type.Integer({ minimum: 1 }),
    bypass: Type.Union([InterlockBypassSchema, Type.Null()]),
    updatedAt: IsoDateTime,
  },
  { title: 'Interlock' },
);
export type Interlock = Static<typeof InterlockSchema>;

const interlockFields = {
  deviceId: DeviceRef,
  command: Type.String({ minLength: 1, maxLength: 32 }),
  name: Type.String({ maxLength: 1000 }),
  conditions: Type.Array(InterlockConditionSchema, { maxItems: 100 }),
  mode: InterlockModeSchema,
  enabled: Type.Boolean(),
};
export const InterlockCreateSchema = Type.Object(
  { ...interlockFields, enabled: Type.Optional(Type.Boolean({ default: true })) },
  { additionalProperties: false, title: 'InterlockCreate' },
);
export type InterlockCreate = Static<typeof InterlockCreateSchema>;
export const InterlockPatchSchema = Type.Object(
  {
    version: Type.Integer({ minimum: 1, description: 'the version read; another one answers 409 VERSION_CONFLICT' }),
    command: Type.Optional(interlockFields.command),
    name: Type.Optional(interlockFields.name),
    conditions: Type.Optional(interlockFields.conditions),
    mode: Type.Optional(interlockFields.mode),
    enabled: Type.Optional(interlockFields.enabled),
  },
  { additionalProperties: false, title: 'InterlockPatch' },
);
export type InterlockPatch = Static<typeof InterlockPatchSchema>;

export const InterlockBypassInputSchema = Type.Object(
  { minutes: Type.Number(), comment: Type.String({ maxLength: 10_000 }) },
  { additionalProperties: false, title: 'InterlockBypassInput' },
);

export const InterlockReasonSchema = Type.Object(
  { interlockId: Type.String(), name: Type.String(), mode: InterlockModeSchema, deviceId: Type.String(), kind: Literals(INTERLOCK_CONDITION_KINDS), message: Type.String() },
  { title: 'InterlockReason' },
);

export const PermissivesSchema = Type.Object(
  {
    deviceId: Type.String(),
    command: Type.String(),
    allowed: Type.Boolean({ description: 'false only when a block interlock fails' }),
    mode: Type.Union([InterlockModeSchema, Type.Null()]),
    requires: Type.Object({ comment: Type.Boolean(), password: Type.Boolean(), approval: Type.Boolean() }),
    reasons: Type.Array(InterlockReasonSchema),
    bypassed: Type.Array(Type.Object({ interlockId: Type.String(), name: Type.String(), until: IsoDateTime })),
  },
  { title: 'Permissives' },
);
export type Permissives = Static<typeof PermissivesSchema>;

export const InterlockOverrideSchema = Type.Object({
  interlockId: Type.String(),
  version: Type.Integer(),
  mode: Type.Union([InterlockModeSchema, Type.Literal('bypass')]),
});
