import { Type } from '@sinclair/typebox';
import { ErrorEnvelopeSchema } from '@agua/shared';

/** Error responses a route may give, for its schema and the OpenAPI document. */
export function errors(...statuses: number[]): Record<number, typeof ErrorEnvelopeSchema> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorEnvelopeSchema]));
}

/** OpenAPI security of routes that need a signed-in session (cookie). */
type Security = Array<Record<string, string[]>>;
export const SESSION_SECURITY: Security = [{ session: [] }];
/** OpenAPI security of the device routes (API key in X-API-Key or Bearer). */
export const DEVICE_SECURITY: Security = [{ deviceKey: [] }, { deviceBearer: [] }];
/** OpenAPI security of public routes. */
export const PUBLIC_SECURITY: Security = [];

/**
 * A time in a query (`from`, `to`): a string, read by lib/time's parseRange, which answers 400
 * VALIDATION_FAILED without an offset and 400 TIME_OUT_OF_RANGE outside years 0000-9999 UTC.
 */
export const RequestTime = (what: string) =>
  Type.String({ maxLength: 64, description: `ISO 8601 with an offset (400 without), ${what}; years 0000-9999 UTC (400 TIME_OUT_OF_RANGE)` });

/**
 * The route option of answers that can be long lists (readings, devices, alarms, audit, commands,
 * the delivery log): gzip when the client accepts it and the answer passes 1 KiB (app.ts).
 */
export const LIST_COMPRESSION = {};
