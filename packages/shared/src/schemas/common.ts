import { Type, type Static, type TLiteral, type TSchema, type TUnion } from '@sinclair/typebox';

/** A UTC timestamp in ISO 8601 with `Z`, as every response carries times. */
export const IsoDateTime = Type.String({ format: 'date-time', examples: ['2026-11-22T10:00:00.000Z'] });

/** Error envelope of every non-2xx answer (docs/api.md). */
export const ErrorEnvelopeSchema = Type.Object(
  {
    error: Type.String({ description: 'Spanish message for people' }),
    code: Type.String({ description: 'Machine code, SCREAMING_SNAKE' }),
    details: Type.Optional(Type.Unknown()),
  },
  { title: 'ErrorEnvelope' },
);
export type ErrorEnvelope = Static<typeof ErrorEnvelopeSchema>;

/** A page of a list that can grow without bound. */
export function Page<T extends TSchema>(item: T) {
  return Type.Object({ items: Type.Array(item), nextCursor: Type.Union([Type.String(), Type.Null()]) });
}

type Literals<T extends readonly string[]> = { -readonly [K in keyof T]: TLiteral<T[K]> };

/** A schema for one of a fixed set of strings, keeping the literal types. */
export function Literals<const T extends readonly string[]>(values: T): TUnion<Literals<T>> {
  return Type.Union(values.map((v) => Type.Literal(v))) as unknown as TUnion<Literals<T>>;
}
