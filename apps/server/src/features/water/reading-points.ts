import { volumeAt, type SeriesPoint } from '@agua/shared';
import type { HistoryRow } from '../history/readings.repository';
import type { GeometryTimeline } from './geometry.service';

/** A device's stored readings in a range, oldest first, in batches (the history feature's). */
export type ReadingBatches = (deviceId: string, range: { fromMs: number; toMs: number }) => AsyncIterable<HistoryRow[]>;

/**
 * A stored reading as the figures per period count it: `fault` and non-numeric readings count in
 * none (null), each volume by the geometry valid at the reading's time (docs/water.md).
 */
export function usablePoint(row: HistoryRow, timeline: GeometryTimeline): SeriesPoint | null {
  if (row.status === 'fault' || row.valueNum === null) return null;
  const g = timeline.at(row.tsMs);
  return { tsMs: row.tsMs, levelM: row.valueNum, volumeM3: g.shape ? volumeAt(g.shape, row.valueNum).volumeM3 : null };
}
