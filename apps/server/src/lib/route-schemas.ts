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
