import { Type, type Static } from '@sinclair/typebox';
import { IsoDateTime } from './common';

const Figure = Type.Union([Type.Number(), Type.Null()]);

/** A stored overflow event (spill) of a level sensor with a crest (docs/water.md "Overflow events"). */
export const OverflowEventSchema = Type.Object(
  {
    id: Type.String(),
    deviceId: Type.String(),
    startedAt: IsoDateTime,
    /** Null while it is still spilling. */
    endedAt: Type.Union([IsoDateTime, Type.Null()]),
    /** To `endedAt`; an open event's to its device's newest reading. */
    durationS: Type.Number({ minimum: 0 }),
    peakLevelM: Type.Number(),
    volumeM3: Figure,
    method: Type.Union([Type.Literal('weir'), Type.Null()]),
    cause: Type.Union([Type.String(), Type.Null()]),
    notifiedAt: Type.Union([IsoDateTime, Type.Null()]),
    notes: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'OverflowEvent' },
);
export type OverflowEvent = Static<typeof OverflowEventSchema>;

/** Counts of the events started in a range (docs/water.md "Overflow events"). */
export const OverflowStatsSchema = Type.Object(
  {
    events: Type.Integer({ minimum: 0 }),
    spills1224: Type.Integer({ minimum: 0 }),
    totalDurationS: Type.Number({ minimum: 0 }),
    totalVolumeM3: Figure,
  },
  { title: 'OverflowStats' },
);
export type OverflowStats = Static<typeof OverflowStatsSchema>;

export const OVERFLOW_TEXT_LIMITS = { cause: 200, notes: 2000 } as const;

/** `PATCH /overflow-events/{id}`: what people set on an event. */
export const OverflowEventPatchSchema = Type.Object(
  {
    cause: Type.Optional(Type.Union([Type.String({ maxLength: OVERFLOW_TEXT_LIMITS.cause }), Type.Null()])),
    notifiedAt: Type.Optional(Type.Union([IsoDateTime, Type.Null()])),
    notes: Type.Optional(Type.Union([Type.String({ maxLength: OVERFLOW_TEXT_LIMITS.notes }), Type.Null()])),
  },
  { additionalProperties: false, title: 'OverflowEventPatch' },
);
export type OverflowEventPatch = Static<typeof OverflowEventPatchSchema>;
