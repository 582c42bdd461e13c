import { AnalyticsBuckets, FLOW_WALK_DEADBAND_FRACTION, SERIES_LINK_MS, levelThresholdsOf, volumeAt, type AnalyticsBucket } from '@agua/shared';
import { notFound } from '../../lib/errors';
import type { DeviceRecord } from '../devices/devices.repository';
import type { HistoryRow } from '../history/readings.repository';
import { bucketEdges, type AnalyticsStep } from './bucket-edges';
import type { GeometryService } from './geometry.service';

/** A device's stored readings in a range, oldest first, in batches (the history feature's). */
export type ReadingBatches = (deviceId: string, range: { fromMs: number; toMs: number }) => AsyncIterable<HistoryRow[]>;


export interface AnalyticsSeries {
  fromMs: number;
  toMs: number;
  step: AnalyticsStep;
  items: AnalyticsBucket[];
}

/**
 * Level, volume and flows of a level sensor per minute, hour or local day, from its stored
 * readings (`GET /devices/{id}/analytics`). Readings are streamed through, never held.
 */
export class WaterAnalyticsService {
  constructor(
    private readonly geometry: GeometryService,
    private readonly readings: ReadingBatches,
    private readonly deviceOf: (id: string) => DeviceRecord | undefined,
  ) {}

  async series(deviceId: string, range: { fromMs: number; toMs: number }, step: AnalyticsStep): Promise<AnalyticsSeries> {
    const device = this.deviceOf(deviceId);
    if (!device || device.type !== 'level_sensor') throw notFound('DEVICE_NOT_FOUND');
    const edges = bucketEdges(range.fromMs, range.toMs, step);
    const timeline = this.geometry.timeline(deviceId);
    const { maxLevel } = levelThresholdsOf(device.settings);
    const { shape } = timeline.current;
    const buckets = new AnalyticsBuckets(edges, shape ? FLOW_WALK_DEADBAND_FRACTION * volumeAt(shape, maxLevel).volumeM3 : null);
    for await (const rows of this.readings(deviceId, { fromMs: edges[0]! - SERIES_LINK_MS, toMs: range.toMs })) {
      for (const row of rows) {
        if (row.status === 'fault' || row.valueNum === null) continue;
        const g = timeline.at(row.tsMs);
        const point = { tsMs: row.tsMs, levelM: row.valueNum, volumeM3: g.shape ? volumeAt(g.shape, row.valueNum).volumeM3 : null };
        if (row.tsMs < range.fromMs) buckets.remember(point);
        else buckets.add(point);
      }
    }
    return { ...range, step, items: buckets.finish() };
  }
}
