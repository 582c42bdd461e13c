import { Type, type Static } from '@sinclair/typebox';
import { ALARM_KINDS, ALARM_RULE_LIMITS } from '../alarms/alarm-rules';
import { ALARM_STATES } from '../alarms/alarm-states';
import { IsoDateTime, Literals } from './common';

export const AlarmKindSchema = Literals(ALARM_KINDS);
export const AlarmStateSchema = Literals(ALARM_STATES);
export const AlarmPrioritySchema = Type.Integer({ minimum: 1, maximum: 4, description: '1 Crítica, 2 Alta, 3 Media, 4 Baja' });

const SetpointPct = Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 100, description: '% of the device maxLevel' });
const SetpointM = Type.Number({ exclusiveMinimum: 0, description: 'metres of level (absolute); at or above the device maxLevel is refused (422)' });
const SetpointMin = Type.Number({ exclusiveMinimum: 0, maximum: ALARM_RULE_LIMITS.setpointMinMax, description: 'time_to_overflow: minutes' });
const RatePerMin = Type.Number({ exclusiveMinimum: 0, maximum: ALARM_RULE_LIMITS.ratePerMinMax, description: 'metres per minute' });
const WindowS = Type.Integer({ minimum: ALARM_RULE_LIMITS.windowMinS, maximum: ALARM_RULE_LIMITS.windowMaxS });
const DeadbandPct = Type.Number({ minimum: 0, description: '% of maxLevel; 50 or more is refused (422)' });
const DelayS = Type.Integer({ minimum: 0, maximum: ALARM_RULE_LIMITS.delayMaxS });

export const AlarmRuleSchema = Type.Object(
  {
    id: Type.String(),
    kind: AlarmKindSchema,
    enabled: Type.Boolean(),
    priority: AlarmPrioritySchema,
    setpointPct: Type.Optional(Type.Union([SetpointPct, Type.Null()], { description: 'level kinds: % of maxLevel, or null when set in metres' })),
    setpointM: Type.Optional(Type.Union([SetpointM, Type.Null()], { description: 'level kinds: metres of level, or null when set in %' })),
    setpointMin: Type.Optional(SetpointMin),
    ratePerMin: Type.Optional(RatePerMin),
    windowS: Type.Optional(WindowS),
    deadbandPct: DeadbandPct,
    onDelayS: DelayS,
    offDelayS: DelayS,
  },
  { title: 'AlarmRule' },
);

export const AlarmRuleUpdateBodySchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    priority: Type.Optional(AlarmPrioritySchema),
    setpointPct: Type.Optional(SetpointPct),
    setpointM: Type.Optional(SetpointM),
    setpointMin: Type.Optional(SetpointMin),
    ratePerMin: Type.Optional(RatePerMin),
    windowS: Type.Optional(WindowS),
    deadbandPct: Type.Optional(DeadbandPct),
    onDelayS: Type.Optional(DelayS),
    offDelayS: Type.Optional(DelayS),
  },
  { additionalProperties: false },
);
export type AlarmRuleUpdateBody = Static<typeof AlarmRuleUpdateBodySchema>;

const Person = Type.Union([Type.Object({ id: Type.String(), username: Type.String(), name: Type.String() }), Type.Null()]);
const OptionalTime = Type.Union([IsoDateTime, Type.Null()]);

export const AlarmSchema = Type.Object(
  {
    id: Type.String(),
    deviceId: Type.String(),
    ruleId: Type.String(),
    kind: AlarmKindSchema,
    priority: AlarmPrioritySchema,
    state: AlarmStateSchema,
    raisedAt: IsoDateTime,
    ackedAt: OptionalTime,
    ackedBy: Person,
    ackComment: Type.Union([Type.String(), Type.Null()]),
    clearedAt: OptionalTime,
    shelvedUntil: OptionalTime,
    shelvedBy: Person,
    shelveComment: Type.Union([Type.String(), Type.Null()]),
    value: Type.Union([Type.Number(), Type.String(), Type.Null()]),
    peakValue: Type.Union([Type.Number(), Type.Null()]),
    message: Type.String(),
  },
  { title: 'Alarm' },
);
export type Alarm = Static<typeof AlarmSchema>;
