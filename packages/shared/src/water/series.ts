/**
 * Figures of a period from its readings (docs/water.md "Daily totals"): the period's series, the
 * water that came in and went out, and the time spent above the crest.
 */

/** One usable level reading with its volume (null without a shape). */
export interface SeriesPoint {
  tsMs: number;
  levelM: number;
  volumeM3: number | null;
}

/** A reading at most this much older than a period's start opens its series: periods chain. */
export const SERIES_LINK_MS = 15 * 60_000;
/** The dead band of the in/out walk, as a share of V(maxLevel): ripples are not water moving. */
export const FLOW_WALK_DEADBAND_FRACTION = 0.002;

/**
 * The series of [fromMs, toMs): its readings, preceded by the last reading before it when that is
 * at most 15 minutes older. `points` must be in time order.
 */
export function periodSeries<P extends { tsMs: number }>(points: readonly P[], fromMs: number, toMs: number): P[] {
  const first = lowerBound(points, fromMs);
  const end = lowerBound(points, toMs);
  const inside = points.slice(first, end);
  const before = first > 0 ? points[first - 1]! : undefined;
  return before && fromMs - before.tsMs <= SERIES_LINK_MS ? [before, ...inside] : inside;
}

/** The index of the first point at or after `tsMs`. */
function lowerBound(points: readonly { tsMs: number }[], tsMs: number): number {
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (points[mid]!.tsMs < tsMs) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Water in and out over a series of volumes: walk it with a reference (its first volume); a point
 * more than `deadbandM3` above the reference adds the difference to the inflow and becomes the
 * reference, one more than that below adds to the outflow likewise; the remainder at the end goes
 * to the side of its sign. So end − start = inflow − outflow exactly, and noise inside the band
 * counts in neither.
 */
export function inflowOutflow(volumes: readonly number[], deadbandM3: number): { inflowM3: number; outflowM3: number } | null {
  if (volumes.length === 0) return null;
  let reference = volumes[0]!;
  let inflowM3 = 0;
  let outflowM3 = 0;
  for (const v of volumes) {
    if (v - reference > deadbandM3) {
      inflowM3 += v - reference;
      reference = v;
    } else if (reference - v > deadbandM3) {
      outflowM3 += reference - v;
      reference = v;
    }
  }
  const remainder = volumes[volumes.length - 1]! - reference;
  if (remainder > 0) inflowM3 += remainder;
  else outflowM3 -= remainder;
  return { inflowM3, outflowM3 };
}

/**
 * Seconds of [fromMs, toMs) spent at or above the crest: each reading at or above it counts until
 * the next reading, for at most 15 minutes (a silent sensor proves nothing for longer), and never
 * past `nowMs`. `points` must be in time order and may include readings outside the period.
 */
export function secondsAboveCrest(points: readonly { tsMs: number; levelM: number }[], crestM: number, fromMs: number, toMs: number, nowMs: number): number {
  let ms = 0;
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    if (p.levelM < crestM) continue;
    const next = points[i + 1]?.tsMs ?? nowMs;
    const until = Math.min(next, p.tsMs + SERIES_LINK_MS, nowMs, toMs);
    const since = Math.max(p.tsMs, fromMs);
    if (until > since) ms += until - since;
  }
  return ms / 1000;
}

/**
 * The share of a period's slots that hold a reading, in %: slots of max(60 s, the reading
 * interval) from the period's start; a period still running counts the slots begun so far.
 */
export function completenessPct(readingTimesMs: readonly number[], fromMs: number, toMs: number, nowMs: number, readingIntervalS: number): number {
  const slotMs = Math.max(60, readingIntervalS) * 1000;
  const endMs = Math.min(toMs, nowMs);
  if (endMs <= fromMs) return 0;
  const slots = Math.ceil((endMs - fromMs) / slotMs);
  const filled = new Set<number>();
  for (const ts of readingTimesMs) {
    if (ts >= fromMs && ts < endMs) filled.add(Math.floor((ts - fromMs) / slotMs));
  }
  return (100 * filled.size) / slots;
}
