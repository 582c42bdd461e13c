import { Type, type Static } from '@sinclair/typebox';
import { STRAPPING_POINTS_LIMITS } from '../water/geometry';
import { IsoDateTime } from './common';

// Types only: ranges are the domain's (resolveGeometry), answered 422 GEOMETRY_INVALID with the
// field; a wrong type or an unknown key is the client's bug, answered 400 (docs/water.md).
const Num = Type.Number();
const Strict = { additionalProperties: false } as const;

export const TankShapeSchema = Type.Union(
  [
    Type.Object({ kind: Type.Literal('rectangular'), areaM2: Num }, Strict),
    Type.Object({ kind: Type.Literal('vertical_cylinder'), diameterM: Num }, Strict),
    Type.Object({ kind: Type.Literal('horizontal_cylinder'), diameterM: Num, lengthM: Num }, Strict),
    Type.Object(
      {
        kind: Type.Literal('table'),
        // Twice the domain's limit, so that 501 points still reach the 422 that names the field.
        points: Type.Array(Type.Object({ levelM: Num, volumeM3: Num }, Strict), { maxItems: STRAPPING_POINTS_LIMITS.max * 2 }),
      },
      Strict,
    ),
  ],
  { title: 'TankShape' },
);

const GeometryFields = {
  sensor: Type.Union([Type.Literal('level'), Type.Literal('distance')]),
  mountHeightM: Type.Union([Num, Type.Null()]),
  zeroOffsetM: Num,
  crestLevelM: Type.Union([Num, Type.Null()]),
  shape: Type.Union([TankShapeSchema, Type.Null()]),
  weir: Type.Union([Type.Object({ widthM: Num, coefficient: Num }, Strict), Type.Null()]),
  flowWindowS: Num,
  spill: Type.Object({ onDelayS: Num, offDelayS: Num, deadbandM: Num }, Strict),
};

const Person = Type.Union([Type.Object({ id: Type.String(), username: Type.String(), name: Type.String() }), Type.Null()]);

/** One stored version of a level sensor's geometry. */
export const GeometryVersionSchema = Type.Object(
  { version: Type.Integer(), ...GeometryFields, validFrom: Type.Union([IsoDateTime, Type.Null()]), by: Person },
  { title: 'GeometryVersion' },
);
export type GeometryVersion = Static<typeof GeometryVersionSchema>;

/** `GET /devices/{id}/geometry`: the current version and every version, newest first. */
export const DeviceGeometrySchema = Type.Object(
  { ...GeometryVersionSchema.properties, versions: Type.Array(GeometryVersionSchema) },
  { title: 'DeviceGeometry' },
);
export type DeviceGeometry = Static<typeof DeviceGeometrySchema>;

/**
 * `PUT /devices/{id}/geometry`: every field optional (left out: the default). What a GET answers
 * besides the fields (`version`, `validFrom`, `by`, `versions`) is accepted and ignored, so a
 * client can send back what it read.
 */
export const GeometryBodySchema = Type.Object(
  {
    sensor: Type.Optional(GeometryFields.sensor),
    mountHeightM: Type.Optional(GeometryFields.mountHeightM),
    zeroOffsetM: Type.Optional(Num),
    crestLevelM: Type.Optional(GeometryFields.crestLevelM),
    shape: Type.Optional(GeometryFields.shape),
    weir: Type.Optional(Type.Union([Type.Object({ widthM: Num, coefficient: Type.Optional(Num) }, Strict), Type.Null()])),
    flowWindowS: Type.Optional(Num),
    spill: Type.Optional(Type.Object({ onDelayS: Type.Optional(Num), offDelayS: Type.Optional(Num), deadbandM: Type.Optional(Num) }, Strict)),
    version: Type.Optional(Type.Unknown()),
    validFrom: Type.Optional(Type.Unknown()),
    by: Type.Optional(Type.Unknown()),
    versions: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false, title: 'GeometryBody' },
);
export type GeometryBody = Static<typeof GeometryBodySchema>;

const Figure = Type.Union([Type.Number(), Type.Null()]);

/** What a level sensor's water amounts to now (docs/water.md "Volume, flow, time to overflow"). */
export const WaterAnalyticsSchema = Type.Object(
  {
    volumeM3: Type.Number(),
    fillPct: Type.Number(),
    netFlowM3h: Figure,
    timeToOverflowS: Figure,
    timeToEmptyS: Figure,
    quality: Type.Union([Type.Literal('good'), Type.Literal('extrapolated')]),
    at: IsoDateTime,
  },
  { title: 'WaterAnalytics' },
);

/** A local calendar date, `YYYY-MM-DD` (the server's `TZ`). */
export const LocalDateSchema = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD, a local date (TZ)' });

/** One local day of a level sensor (docs/water.md "Daily totals"). */
export const DailyTotalsSchema = Type.Object(
  {
    date: LocalDateSchema,
    minLevelM: Figure,
    maxLevelM: Figure,
    meanLevelM: Figure,
    volumeStartM3: Figure,
    volumeEndM3: Figure,
    inflowM3: Figure,
    outflowM3: Figure,
    secondsAboveCrest: Figure,
    overflowEvents: Type.Integer({ minimum: 0 }),
    completenessPct: Type.Number({ minimum: 0, maximum: 100 }),
  },
  { title: 'DailyTotals' },
);
