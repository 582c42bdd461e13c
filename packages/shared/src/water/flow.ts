/** A volume at a time: the input of the flow figure. */
export interface VolumePoint {
  tsMs: number;
  volumeM3: number;
}

/** Fewer points than this give no flow: two points are a difference, not a trend. */
export const MIN_FLOW_POINTS = 3;
/** Below this share of V(maxLevel) per hour a tank is 'Estable' (flow 0): sensor noise is not a flow. */
export const STABLE_FLOW_FRACTION_PER_H = 0.01;

/**
 * The net flow in m³/h: the least-squares slope of volume over time of the points within the
 * last `windowS` seconds up to the newest (docs/water.md "Volume, flow, time to overflow").
 * `null` with fewer than 3 points or when they span less than half the window; 0 when the slope
 * is under 1 % of `fullVolumeM3` per hour. Points must be in time order.
 */
export function netFlowM3h(points: readonly VolumePoint[], windowS: number, fullVolumeM3: number): number | null {
  if (points.length === 0) return null;
  const newest = points[points.length - 1]!.tsMs;
  const since = newest - windowS * 1000;
  let start = points.length - 1;
  while (start > 0 && points[start - 1]!.tsMs >= since) start--;
  const n = points.length - start;
  if (n < MIN_FLOW_POINTS) return null;
  if (newest - points[start]!.tsMs < (windowS * 1000) / 2) return null;
  // Hours from the window's first point keep the sums small and well conditioned.
  const t0 = points[start]!.tsMs;
  let sumT = 0;
  let sumV = 0;
  for (let i = start; i < points.length; i++) {
    sumT += (points[i]!.tsMs - t0) / 3_600_000;
    sumV += points[i]!.volumeM3;
  }
  const meanT = sumT / n;
  const meanV = sumV / n;
  let cov = 0;
  let varT = 0;
  for (let i = start; i < points.length; i++) {
    const dt = (points[i]!.tsMs - t0) / 3_600_000 - meanT;
    cov += dt * (points[i]!.volumeM3 - meanV);
    varT += dt * dt;
  }
  if (varT === 0) return null;
  const slope = cov / varT;
  return Math.abs(slope) < STABLE_FLOW_FRACTION_PER_H * fullVolumeM3 ? 0 : slope;
}

/**
 * Seconds until the reference volume is reached at this flow, 0 once it is; null unless filling
 * (a stale or steady tank gets no forecast rather than a wrong one).
 */
export function timeToOverflowS(volumeM3: number, referenceM3: number, flowM3h: number | null): number | null {
  if (flowM3h === null || flowM3h <= 0) return null;
  return volumeM3 >= referenceM3 ? 0 : ((referenceM3 - volumeM3) * 3600) / flowM3h;
}

/** Seconds until empty at this flow; null unless emptying. */
export function timeToEmptyS(volumeM3: number, flowM3h: number | null): number | null {
  if (flowM3h === null || flowM3h >= 0) return null;
  return (volumeM3 * 3600) / -flowM3h;
}
