import { netFlowM3h, timeToEmptyS, timeToOverflowS } from './flow';
import type { Geometry } from './geometry';
import { referenceVolume, volumeAt, type VolumeQuality } from './volume';

/** What a level sensor's water amounts to now: the figure on its card, panel, socket and API. */
export interface WaterAnalytics {
  volumeM3: number;
  fillPct: number;
  netFlowM3h: number | null;
  timeToOverflowS: number | null;
  timeToEmptyS: number | null;
  quality: VolumeQuality;
  /** The newest reading's time, ISO 8601. */
  at: string;
}

/** A level reading as the figures need it: its time, its level and whether it is usable. */
export interface LevelPoint {
  tsMs: number;
  levelM: number;
  /** `fault` readings count in no figure. */
  fault: boolean;
}

/**
 * The analytics of a level sensor from its recent readings, oldest first (at least the flow
 * window's): null without a shape or a usable reading. With the newest reading older than the
 * offline timeout the flow and both times are null: stale data gets no forecast.
 */
export function waterAnalytics(
  geometry: Pick<Geometry, 'shape' | 'crestLevelM' | 'flowWindowS'>,
  maxLevelM: number,
  readings: readonly LevelPoint[],
  nowMs: number,
  offlineAfterS: number,
): WaterAnalytics | null {
  const { shape } = geometry;
  if (!shape) return null;
  const usable = readings.filter((r) => !r.fault);
  const newest = usable[usable.length - 1];
  if (!newest) return null;
  const current = volumeAt(shape, newest.levelM);
  const reference = referenceVolume(geometry, maxLevelM)!;
  const full = volumeAt(shape, maxLevelM).volumeM3;
  const stale = nowMs - newest.tsMs > offlineAfterS * 1000;
  const flow = stale ? null : netFlowM3h(usable.map((r) => ({ tsMs: r.tsMs, volumeM3: volumeAt(shape, r.levelM).volumeM3 })), geometry.flowWindowS, full);
  return {
    volumeM3: current.volumeM3,
    fillPct: reference > 0 ? (100 * current.volumeM3) / reference : 0,
    netFlowM3h: flow,
    timeToOverflowS: timeToOverflowS(current.volumeM3, reference, flow),
    timeToEmptyS: timeToEmptyS(current.volumeM3, flow),
    quality: current.quality,
    at: new Date(newest.tsMs).toISOString(),
  };
}
