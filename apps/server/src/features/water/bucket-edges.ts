import { MAX_ANALYTICS_BUCKETS } from '@agua/shared';
import { badRequest } from '../../lib/errors';
import { localMidnight, nextLocalMidnight } from './local-days';

export const ANALYTICS_STEPS = ['1m', '1h', '1d'] as const;
export type AnalyticsStep = (typeof ANALYTICS_STEPS)[number];

const STEP_MS = { '1m': 60_000, '1h': 3_600_000 } as const;
/** A local day lasts 23 to 25 hours. */
const SHORTEST_DAY_MS = 23 * 3_600_000;

/**
 * The edges of the buckets that cover [fromMs, toMs): minutes and hours aligned to UTC, days to
 * local midnight (the process's TZ, so 23- and 25-hour days where the clocks change). The first
 * edge is the aligned start at or before `fromMs`, the last the first aligned edge at or after
 * `toMs`. More than MAX_ANALYTICS_BUCKETS buckets is `400 TOO_MANY_BUCKETS`, judged before any
 * edge is made.
 */
export function bucketEdges(fromMs: number, toMs: number, step: AnalyticsStep): number[] {
  if (step === '1d') return dayEdges(fromMs, toMs);
  const size = STEP_MS[step];
  const first = Math.floor(fromMs / size) * size;
  const count = Math.ceil((toMs - first) / size);
  if (count > MAX_ANALYTICS_BUCKETS) throw badRequest('TOO_MANY_BUCKETS', { max: MAX_ANALYTICS_BUCKETS });
  return Array.from({ length: count + 1 }, (_, i) => first + i * size);
}

function dayEdges(fromMs: number, toMs: number): number[] {
  if ((toMs - fromMs) / SHORTEST_DAY_MS > MAX_ANALYTICS_BUCKETS) throw badRequest('TOO_MANY_BUCKETS', { max: MAX_ANALYTICS_BUCKETS });
  const edges = [localMidnight(fromMs)];
  while (edges[edges.length - 1]! < toMs) edges.push(nextLocalMidnight(edges[edges.length - 1]!));
  if (edges.length - 1 > MAX_ANALYTICS_BUCKETS) throw badRequest('TOO_MANY_BUCKETS', { max: MAX_ANALYTICS_BUCKETS });
  return edges;
}
