import { badRequest } from './errors';

/**
 * The opaque cursor of a page ordered newest first by (time, id): the last item's time and id,
 * base64url. One that is not ours is `400 VALIDATION_FAILED {field: 'cursor'}`.
 */
export const encodeTimeIdCursor = (ms: number, id: string): string => Buffer.from(`${ms}|${id}`).toString('base64url');

export function decodeTimeIdCursor(cursor: string): { ms: number; id: string } {
  const [ms, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!ms || !id || !/^\d{1,15}$/.test(ms)) throw badRequest('VALIDATION_FAILED', { field: 'cursor' });
  return { ms: Number(ms), id };
}
