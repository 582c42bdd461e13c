import { Type, type Static } from '@sinclair/typebox';
import { COMMAND_STATUSES, DEVICE_TYPES, GATE_STATES, WATER_TYPES } from '../devices/devices';
import { READING_STATUSES } from '../readings/status';
import { IsoDateTime, Literals } from './common';
import { WaterAnalyticsSchema } from './water';
import { InterlockOverrideSchema } from './interlock';

export const DeviceTypeSchema = Literals(DEVICE_TYPES);
export const WaterTypeSchema = Literals(WATER_TYPES);
export const GateStateSchema = Literals(GATE_STATES);
export const ReadingStatusSchema = Literals(READING_STATUSES);
export const CommandStatusSchema = Literals(COMMAND_STATUSES);

export const ReadingSchema = Type.Object(
  {
    value: Type.Union([Type.Number(), GateStateSchema]),
    unit: Type.Union([Type.Literal('m'), Type.Null()]),
    status: ReadingStatusSchema,
    ts: IsoDateTime,
    raw: Type.Optional(
      Type.Number({ description: "Level readings only: what the sensor sent (a distance sensor's distance down to the water, in m); equals `value` for a level sensor without a zero offset." }),
    ),
  },
  { title: 'Reading' },
);
export type Reading = Static<typeof ReadingSchema>;

export const CommandSchema = Type.Object(
  {
    id: Type.String(),
    deviceId: Type.String(),
    command: Type.String(),
    status: CommandStatusSchema,
    issuedBy: Type.Union([
      Type.Object({ kind: Type.Literal('user'), id: Type.String(), username: Type.String(), name: Type.String() }),
      Type.Object({ kind: Type.Literal('schedule'), scheduleId: Type.String(), name: Type.Literal('Programación') }),
      Type.Null(),
    ]),
    issuedAt: IsoDateTime,
    deliveredAt: Type.Union([IsoDateTime, Type.Null()]),
    completedAt: Type.Union([IsoDateTime, Type.Null()]),
    message: Type.Union([Type.String(), Type.Null()]),
    /** docs/control.md: the issuer's comment (a `confirm` interlock demands one). */
    comment: Type.Union([Type.String(), Type.Null()]),
    approvedBy: Type.Union([Type.Object({ id: Type.String(), username: Type.String(), name: Type.String() }), Type.Null()]),
    approvedAt: Type.Union([IsoDateTime, Type.Null()]),
    /** A two-person command waiting for approval expires then. */
    approvalExpiresAt: Type.Union([IsoDateTime, Type.Null()]),
    /** The failed interlocks this command passed: by their demand, or bypassed. */
    overrides: Type.Array(InterlockOverrideSchema),
  },
  { title: 'Command' },
);
export type Command = Static<typeof CommandSchema>;

export const LevelSensorConfigSchema = Type.Object({
  maxLevel: Type.Number({ exclusiveMinimum: 0 }),
  unit: Type.Literal('m'),
  warningPct: Type.Number({ minimum: 0, maximum: 100 }),
  criticalPct: Type.Number({ minimum: 0, maximum: 100 }),
  offlineAfterS: Type.Integer({ minimum: 1 }),
  /** How often the sensor reads (s): the slots of a day's completeness are max(60 s, this). */
  readingIntervalS: Type.Integer({ minimum: 1 }),
});
export const GateConfigSchema = Type.Object({
  state: Type.Union([GateStateSchema, Type.Null()]),
  travelTimeoutS: Type.Integer({ minimum: 1 }),
  offlineAfterS: Type.Integer({ minimum: 1 }),
});
export type LevelSensorConfig = Static<typeof LevelSensorConfigSchema>;
export type GateConfig = Static<typeof GateConfigSchema>;

export const DeviceSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    location: Type.String(),
    type: DeviceTypeSchema,
    waterType: Type.Union([WaterTypeSchema, Type.Null()]),
    status: Type.Union([Type.Literal('online'), Type.Literal('offline')]),
    enabled: Type.Boolean(),
    lastSeen: Type.Union([IsoDateTime, Type.Null()]),
    lastCommand: Type.Union([CommandSchema, Type.Null()]),
    config: Type.Union([LevelSensorConfigSchema, GateConfigSchema]),
    reading: Type.Union([ReadingSchema, Type.Null()]),
    /** Volume, fill, net flow and forecasts of a level sensor with a shape; null otherwise. */
    analytics: Type.Union([WaterAnalyticsSchema, Type.Null()]),
    /** The site it belongs to (docs/sites.md); null: none. */
    siteId: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'Device' },
);
export type Device = Static<typeof DeviceSchema>;
