import { isApiError } from '@/lib/api-client';
import { fieldOfProblem, problemMessage, type GeometryField } from './geometry-form';

/** A `422 GEOMETRY_INVALID` names the field and the reason: shown on that field, as the form's own check would. */
export function fieldOfGeometryError(error: unknown, maxLevelM: number): { field: GeometryField; message: string } | null {
  if (!isApiError(error) || error.code !== 'GEOMETRY_INVALID') return null;
  const details = error.details as { field?: unknown; reason?: unknown } | null;
  if (!details || typeof details.field !== 'string' || typeof details.reason !== 'string') return null;
  return { field: fieldOfProblem(details.field), message: problemMessage({ field: details.field, reason: details.reason }, maxLevelM) };
}
