import { FLOW_WALK_DEADBAND_FRACTION, SERIES_LINK_MS, levelThresholdsOf, volumeAt } from '@agua/shared';
import type { DeviceRecord } from '../devices/devices.repository';
import type { ReadingBatches } from './reading-points';
import type { GeometryService, GeometryTimeline } from './geometry.service';
import { computeHourFigures, dayOnWholeHours, HOUR_MS, type HourFigures } from './hour-figures';
import { localMidnight, nextLocalMidnight } from './local-days';
import type { HourRange, HourRow, StoredHour, WaterHoursRepository } from './water-hours.repository';

/** What the water feature needs of the readings' index besides the readings themselves. */
export interface ReadingsIndex {
  /** The time of a device's oldest stored reading (retention prunes from the oldest), or null. */
  firstTsMs(deviceId: string): Promise<number | null>;
  /** How many readings a device has in [fromMs, toMs). */
  count(deviceId: string, fromMs: number, toMs: number): Promise<number>;
}

export interface WaterHoursDeps {
  geometry: GeometryService;
  readings: ReadingBatches;
  index: ReadingsIndex;
  repo: WaterHoursRepository;
  devices: () => Iterable<DeviceRecord>;
  now?: () => number;
}

/** What stored figures are computed by: a row computed by another basis no longer holds. */
export interface HoursBasis {
  version: number;
  deadbandM3: number | null;
  timeline: GeometryTimeline;
}

/** How long late readings' deletions gather before they go (one transaction for all). */
const INVALIDATE_AFTER_MS = 200;
/** How often the job stores the hours just completed (app.ts's job list). */
export const WATER_HOURS_EVERY_MS = 5 * 60_000;
/** The first run after a start: soon, so that a server that was off catches up. */
export const WATER_HOURS_FIRST_AFTER_MS = 30_000;
/** Hours stored per write while the job walks a long range. */
const FLUSH_ROWS = 500;

const floorHour = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;

/** The in/out walk's dead band: 0.2 % of V(maxLevel) by the geometry in force (docs/water.md); null without a shape. */
export function walkDeadbandM3(device: DeviceRecord, timeline: GeometryTimeline): number | null {
  const { shape } = timeline.current;
  return shape ? FLOW_WALK_DEADBAND_FRACTION * volumeAt(shape, levelThresholdsOf(device.settings).maxLevel).volumeM3 : null;
}

/** Whether a stored hour still tells what its readings say (retention has not pruned any it used). */
export function hourHolds(row: StoredHour, basis: HoursBasis, firstTsMs: number | null): boolean {
  if (row.geometryVersion !== basis.version || row.deadbandM3 !== basis.deadbandM3) return false;
  return row.sinceMs === null || (firstTsMs !== null && row.sinceMs >= firstTsMs);
}

/**
 * Stored per-hour figures of level sensors with a geometry (docs/water.md "Analytics: how they
 * are answered"): the leader's job stores every complete UTC hour since the oldest reading and
 * recomputes those that no longer hold (another geometry version or maxLevel, readings pruned,
 * another TZ); a late reading deletes the hours it touches, on the instance that stored it.
 */
export class WaterHoursService {
  private readonly now: () => number;
  /** Hours touched by late readings, per device, not deleted yet: answers and the job delete them first. */
  private readonly pending = new Map<string, HourRange>();
  private flushing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly d: WaterHoursDeps) {
    this.now = d.now ?? Date.now;
  }

  /** The basis a device's hours are computed by now (read at one instant: version and timeline agree). */
  basis(device: DeviceRecord): HoursBasis {
    const timeline = this.d.geometry.timeline(device.id);
    return { version: this.d.geometry.version(device.id), deadbandM3: walkDeadbandM3(device, timeline), timeline };
  }

  /**
   * The stored hours of [fromMs, toMs) that hold for `basis`, by their start, with the state asked
   * for. Late readings this instance stored are accounted for first.
   */
  async holding(deviceId: string, basis: HoursBasis, state: 'hour' | 'day', fromMs: number, toMs: number): Promise<Map<number, StoredHour>> {
    // This device's pending deletions must go first (a failure is the answer's); others' may still be under way.
    await (this.pending.has(deviceId) ? this.flush() : this.flushing.catch(() => undefined));
    if (basis.version === 0) return new Map();
    const [rows, firstTsMs] = await Promise.all([this.d.repo.between(deviceId, fromMs, toMs, state), this.d.index.firstTsMs(deviceId)]);
    return new Map(rows.filter((r) => hourHolds(r, basis, firstTsMs)).map((r) => [r.hourMs, r]));
  }

  /**
   * Readings just committed: those in an hour already complete delete the stored hours whose
   * figures they change — their hour, the next one (whose series they may open) and the rest of
   * their local day (whose running figures they change). Off the ingest path: the ranges gather
   * in memory and go in one transaction shortly after (a device catching up sends many batches).
   */
  readingsStored(deviceId: string, rows: ReadonlyArray<{ tsMs: number }>): void {
    const complete = floorHour(this.now());
    let oldest = Infinity;
    let newest = -Infinity;
    for (const { tsMs } of rows) {
      if (tsMs >= complete) continue;
      if (tsMs < oldest) oldest = tsMs;
      if (tsMs > newest) newest = tsMs;
    }
    if (oldest === Infinity) return;
    this.drop({ deviceId, fromMs: floorHour(oldest), toMs: nextLocalMidnight(localMidnight(newest + SERIES_LINK_MS)) });
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.flush().catch(() => undefined);
    }, INVALIDATE_AFTER_MS).unref();
  }

  /** Deletes the hours late readings touched, now (answers, the job and shutdown wait for it). */
  flush(): Promise<void> {
    // After the previous flush, whether it failed or not (its ranges are pending again then).
    this.flushing = this.flushing.catch(() => undefined).then(async () => {
      if (this.pending.size === 0) return;
      const ranges = [...this.pending.values()];
      this.pending.clear();
      try {
        await this.d.repo.deleteRanges(ranges);
      } catch (err) {
        // Kept for the next flush: a stored hour must never outlive a reading that changed it.
        for (const r of ranges) this.drop(r);
        throw err;
      }
    });
    return this.flushing;
  }

  private drop(range: HourRange): void {
    const known = this.pending.get(range.deviceId);
    this.pending.set(range.deviceId, known ? { deviceId: range.deviceId, fromMs: Math.min(known.fromMs, range.fromMs), toMs: Math.max(known.toMs, range.toMs) } : range);
  }

  /** The job: every level sensor with a geometry gets its complete hours stored (leader only). */
  async recompute(): Promise<void> {
    await this.flush();
    for (const device of [...this.d.devices()]) {
      if (device.type !== 'level_sensor' || device.retiredAtMs !== null || !this.d.geometry.configured(device.id)) continue;
      await this.recomputeDevice(device);
    }
  }

  /** A device's complete hours since its oldest reading that are missing or no longer hold, computed and stored. */
  async recomputeDevice(device: DeviceRecord): Promise<void> {
    const endMs = floorHour(this.now());
    const firstTsMs = await this.d.index.firstTsMs(device.id);
    if (firstTsMs === null) {
      await this.d.repo.deleteBetween(device.id, 0, Number.MAX_SAFE_INTEGER);
      return;
    }
    const startMs = floorHour(firstTsMs);
    const basis = this.basis(device);
    const stored = await this.d.repo.between(device.id, 0, endMs, null);
    // Hours before the oldest reading left were pruned with it.
    if (stored.length > 0 && stored[0]!.hourMs < startMs) await this.d.repo.deleteBetween(device.id, 0, startMs);
    const holding = new Set(stored.filter((r) => r.hourMs >= startMs && hourHolds(r, basis, firstTsMs) && r.dayFromMs === expectedDayFrom(r.hourMs)).map((r) => r.hourMs));
    for (const gap of gaps(startMs, endMs, holding)) await this.store(device, basis, gap);
  }

  /** Computes and stores the hours of a gap; if a reading came into its range meanwhile, they are dropped for the next run. */
  private async store(device: DeviceRecord, basis: HoursBasis, gap: { fromMs: number; toMs: number }): Promise<void> {
    const computedAtMs = this.now();
    let rows: HourRow[] = [];
    const flush = async () => {
      await this.d.repo.upsert(rows);
      rows = [];
    };
    const emit = async (f: HourFigures) => {
      rows.push({ ...f, deviceId: device.id, geometryVersion: basis.version, deadbandM3: basis.deadbandM3, computedAtMs });
      if (rows.length >= FLUSH_ROWS) await flush();
    };
    const read = await computeHourFigures(this.d.readings, device.id, basis.timeline, basis.deadbandM3, gap, emit);
    await flush();
    // A reading committed after ours were read, but deleted nothing since its hours were not
    // stored yet: counted now, it makes the gap's rows go (its own deletion covers later ones).
    if ((await this.d.index.count(device.id, read.readFromMs, gap.toMs)) !== read.rows) await this.d.repo.deleteBetween(device.id, gap.fromMs, gap.toMs);
  }
}

/** The local midnight an hour's day figures start at, or null where the day is not on whole hours. */
function expectedDayFrom(hourMs: number): number | null {
  const fromMs = localMidnight(hourMs);
  return dayOnWholeHours(fromMs, nextLocalMidnight(fromMs)) ? fromMs : null;
}

/** The runs of hours of [startMs, endMs) not in `holding`. */
function gaps(startMs: number, endMs: number, holding: ReadonlySet<number>): Array<{ fromMs: number; toMs: number }> {
  const runs: Array<{ fromMs: number; toMs: number }> = [];
  for (let h = startMs; h < endMs; h += HOUR_MS) {
    if (holding.has(h)) continue;
    const last = runs[runs.length - 1];
    if (last && last.toMs === h) last.toMs = h + HOUR_MS;
    else runs.push({ fromMs: h, toMs: h + HOUR_MS });
  }
  return runs;
}
