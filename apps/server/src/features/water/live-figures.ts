import { FLOW_WINDOW_LIMITS_S, levelThresholdsOf, waterAnalytics, type Geometry, type LevelPoint, type Reading, type ReadingStatus, type WaterAnalytics } from '@agua/shared';
import type { DeviceRecord } from '../devices/devices.repository';

/** The longest flow window a geometry may ask for: what each sensor's memory must hold. */
const KEPT_MS = FLOW_WINDOW_LIMITS_S.max * 1000;
/** A sensor reading once a second for an hour; beyond this the oldest go first. */
const MAX_KEPT_POINTS = 3_600;
/** Dropped points cut off in one go once this many gathered. */
const COMPACT_AFTER = 256;

/** A sensor's recent points, oldest first from `start` (those before it are dropped, not yet cut off). */
interface KeptPoints {
  points: LevelPoint[];
  start: number;
  /** Counts the points added: the figures below were computed at one count. */
  version: number;
  figures: { version: number; geometry: Geometry; maxLevelM: number; stale: boolean; value: WaterAnalytics | null } | null;
}

/** The newest point that is not a fault (they count in no figure); -Infinity when none. */
function newestUsableMs(kept: KeptPoints): number {
  for (let i = kept.points.length - 1; i >= kept.start; i--) if (!kept.points[i]!.fault) return kept.points[i]!.tsMs;
  return -Infinity;
}

function compact(kept: KeptPoints): void {
  if (kept.start === 0) return;
  kept.points.splice(0, kept.start);
  kept.start = 0;
}

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
  private readonly recent = new Map<string, KeptPoints>();
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

  /**
   * In time order, once per time (a reading heard both ways counts once); a late one finds its
   * place. Points past the window are dropped by moving `start` and cut off in one splice once
   * enough gathered: a sensor at its 3,600 kept points would otherwise shift them all at every
   * reading (a third of the ingest's main thread under a batch load, docs/bench/ingest-profile.md).
   */
  private addPoint(deviceId: string, point: LevelPoint): boolean {
    let kept = this.recent.get(deviceId);
    if (!kept) {
      kept = { points: [], start: 0, version: 0, figures: null };
      this.recent.set(deviceId, kept);
    }
    const { points } = kept;
    let i = points.length;
    while (i > kept.start && points[i - 1]!.tsMs > point.tsMs) i--;
    if (i > kept.start && points[i - 1]!.tsMs === point.tsMs) return false;
    if (i === points.length) points.push(point);
    else points.splice(i, 0, point);
    kept.version++;
    const newest = points[points.length - 1]!.tsMs;
    while (kept.start < points.length && (newest - points[kept.start]!.tsMs > KEPT_MS || points.length - kept.start > MAX_KEPT_POINTS)) kept.start++;
    if (kept.start >= COMPACT_AFTER) compact(kept);
    return true;
  }

  /** The sensor's figures now; null for a gate, without a shape, or without a usable reading. */
  analyticsOf(deviceId: string): WaterAnalytics | null {
    const device = this.deps.deviceOf(deviceId);
    const kept = this.recent.get(deviceId);
    if (!device || device.type !== 'level_sensor' || !kept || kept.points.length === kept.start) return null;
    const geometry = this.deps.geometryOf(deviceId);
    const maxLevelM = levelThresholdsOf(device.settings).maxLevel;
    const nowMs = this.now();
    const offlineAfterS = this.deps.offlineAfterS(device);
    // The figures change with a point, the geometry, maxLevel or the data going stale, not with
    // each asker: the alarms, the live socket and the lists ask several times per batch.
    const stale = nowMs - newestUsableMs(kept) > offlineAfterS * 1000;
    const cached = kept.figures;
    if (cached && cached.version === kept.version && cached.geometry === geometry && cached.maxLevelM === maxLevelM && cached.stale === stale) return cached.value;
    compact(kept);
    const value = waterAnalytics(geometry, maxLevelM, kept.points, nowMs, offlineAfterS);
    kept.figures = { version: kept.version, geometry, maxLevelM, stale, value };
    return value;
  }

  forget(deviceId: string): void {
    this.recent.delete(deviceId);
  }
}
