import { FLOW_WINDOW_LIMITS_S, levelThresholdsOf, waterAnalytics, type Geometry, type LevelPoint, type Reading, type ReadingStatus, type WaterAnalytics } from '@agua/shared';
import type { DeviceRecord } from '../devices/devices.repository';

/** The longest flow window a geometry may ask for: what each sensor's memory must hold. */
const KEPT_MS = FLOW_WINDOW_LIMITS_S.max * 1000;
/** A sensor reading once a second for an hour; beyond this the oldest go first. */
const MAX_KEPT_POINTS = 3_600;

export interface LiveFiguresDeps {
  deviceOf: (id: string) => DeviceRecord | undefined;
  geometryOf: (deviceId: string) => Geometry;
  /** The device's offline timeout: newer data than this is live, older gets no forecast. */
  offlineAfterS: (device: DeviceRecord) => number;
  now?: () => number;
}

/**
 * What each level sensor's water amounts to now (docs/water.md "Volume, flow, time to
 * overflow"): its readings of the last hour in memory, and the figures computed from them on
 * demand, the same way everywhere they are shown (cards, panel, socket, API).
 */
export class LiveWaterFigures {
  private readonly recent = new Map<string, LevelPoint[]>();
  private readonly now: () => number;

  constructor(private readonly deps: LiveFiguresDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** A committed message's or batch's readings (stored here): every one counts in the flow. Whether any was new here. */
  addRows(deviceId: string, rows: ReadonlyArray<{ tsMs: number; valueNum: number | null; status: ReadingStatus }>): boolean {
    let added = false;
    for (const row of rows) if (row.valueNum !== null && this.addPoint(deviceId, { tsMs: row.tsMs, levelM: row.valueNum, fault: row.status === 'fault' })) added = true;
    return added;
  }

  /** A device's new current reading, as the live socket tells it (stored here or on another instance). Whether it was new here. */
  add(deviceId: string, reading: Pick<Reading, 'ts' | 'value' | 'status'>): boolean {
    if (typeof reading.value !== 'number') return false;
    return this.addPoint(deviceId, { tsMs: Date.parse(reading.ts), levelM: reading.value, fault: reading.status === 'fault' });
  }

  /** In time order, once per time (a reading heard both ways counts once); a late one finds its place. */
  private addPoint(deviceId: string, point: LevelPoint): boolean {
    const points = this.recent.get(deviceId) ?? [];
    let i = points.length;
    while (i > 0 && points[i - 1]!.tsMs > point.tsMs) i--;
    if (i > 0 && points[i - 1]!.tsMs === point.tsMs) return false;
    points.splice(i, 0, point);
    const newest = points[points.length - 1]!.tsMs;
    let drop = 0;
    while (drop < points.length && (newest - points[drop]!.tsMs > KEPT_MS || points.length - drop > MAX_KEPT_POINTS)) drop++;
    if (drop > 0) points.splice(0, drop);
    this.recent.set(deviceId, points);
    return true;
  }

  /** The sensor's figures now; null for a gate, without a shape, or without a usable reading. */
  analyticsOf(deviceId: string): WaterAnalytics | null {
    const device = this.deps.deviceOf(deviceId);
    const points = this.recent.get(deviceId);
    if (!device || device.type !== 'level_sensor' || !points || points.length === 0) return null;
    const geometry = this.deps.geometryOf(deviceId);
    return waterAnalytics(geometry, levelThresholdsOf(device.settings).maxLevel, points, this.now(), this.deps.offlineAfterS(device));
  }

  forget(deviceId: string): void {
    this.recent.delete(deviceId);
  }
}
