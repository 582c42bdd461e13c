import { dailyTotals, levelThresholdsOf, SERIES_LINK_MS, volumeAt, type DailyTotals, type SeriesPoint } from '@agua/shared';
import { notFound } from '../../lib/errors';
import { readingIntervalS } from '../devices/device.mapper';
import type { DeviceRecord } from '../devices/devices.repository';
import { usablePoint, type ReadingBatches } from './reading-points';
import type { DailyTotalsRepository, StoredDailyTotals } from './daily-totals.repository';
import type { GeometryService } from './geometry.service';
import { localDays, localDaysSpanning, localMidnight, startOfLocalDate, type LocalDay } from './local-days';

/**
 * How many overflow events started on each of a device's days (docs/water.md "Daily totals"):
 * the events feature answers it; until it exists, none did.
 */
export type OverflowEventCounts = (deviceId: string, days: readonly LocalDay[]) => Promise<number[]>;

export interface DailyTotalsDeps {
  geometry: GeometryService;
  readings: ReadingBatches;
  repo: DailyTotalsRepository;
  deviceOf: (id: string) => DeviceRecord | undefined;
  devices: () => Iterable<DeviceRecord>;
  overflowEvents: OverflowEventCounts;
  now?: () => number;
}

/** The days the background job looks back at most when it catches up (a server that was off). */
export const DAILY_CATCH_UP_DAYS = 31;
/** How often the job recomputes yesterday and today (app.ts's job list). */
export const DAILY_TOTALS_EVERY_MS = 5 * 60_000;
/** The first run after a start: soon, so that a server that was off catches up. */
export const DAILY_TOTALS_FIRST_AFTER_MS = 60_000;

interface Computed {
  totals: DailyTotals;
  /** The readings of the day's series (0 for a day without readings of its own). */
  points: number;
}

/**
 * Daily totals of level sensors (docs/water.md "Daily totals"): computed from the readings
 * wherever they still exist, and stored, so that a day whose readings retention has pruned is
 * still told (by its stored row). A stored row whose series held more readings than are left now
 * is the day's truth; otherwise the readings are, and the row follows them.
 */
export class DailyTotalsService {
  private readonly now: () => number;

  constructor(private readonly d: DailyTotalsDeps) {
    this.now = d.now ?? Date.now;
  }

  /** `GET /devices/{id}/daily`: one item per local day from `from` (inclusive) to `to` (exclusive). */
  async days(deviceId: string, from: string, to: string): Promise<DailyTotals[]> {
    const device = this.d.deviceOf(deviceId);
    if (!device || device.type !== 'level_sensor') throw notFound('DEVICE_NOT_FOUND');
    return this.resolve(device, localDays(from, to));
  }

  /**
   * The job: every active level sensor's yesterday and today recomputed and stored; a device
   * whose newest stored day is older than yesterday (a server that was off) from that day on, at
   * most DAILY_CATCH_UP_DAYS back.
   */
  async recomputeRecent(): Promise<void> {
    const now = this.now();
    const yesterday = localMidnight(localMidnight(now) - 1);
    for (const device of [...this.d.devices()]) {
      if (device.type !== 'level_sensor' || device.retiredAtMs !== null || !this.d.deviceOf(device.id)) continue;
      const latest = await this.d.repo.latestDate(device.id);
      const latestMs = latest === null ? null : startOfLocalDate(latest);
      const fromMs = latestMs !== null && latestMs < yesterday ? Math.max(latestMs, now - DAILY_CATCH_UP_DAYS * 86_400_000) : yesterday;
      await this.resolve(device, localDaysSpanning(fromMs, now));
    }
  }

  /** The days' totals: from the readings, or from the stored row where readings were pruned; stores what the readings tell. */
  private async resolve(device: DeviceRecord, days: LocalDay[]): Promise<DailyTotals[]> {
    const now = this.now();
    const events = await this.d.overflowEvents(device.id, days);
    const stored = new Map((await this.d.repo.between(device.id, days[0]!.date, days[days.length - 1]!.date)).map((s) => [s.totals.date, s]));
    const computed = await this.fromReadings(device, days, events, now);
    const answer: DailyTotals[] = [];
    const writes: StoredDailyTotals[] = [];
    days.forEach((day, i) => {
      const c = computed[i]!;
      const kept = stored.get(day.date);
      if (kept && c.points < kept.points && (c.points === 0 || (kept.fromMs === day.fromMs && kept.toMs === day.toMs))) {
        // Readings of this day were pruned since it was stored: the row tells it (events are never
        // pruned). Stored under other bounds (TZ changed) it yields to readings that still exist.
        answer.push({ ...kept.totals, overflowEvents: events[i]! });
        return;
      }
      answer.push(c.totals);
      if (c.points > 0 && !sameAs(kept, c)) writes.push({ deviceId: device.id, totals: c.totals, fromMs: day.fromMs, toMs: day.toMs, points: c.points, computedAtMs: now });
    });
    await this.d.repo.upsert(writes);
    return answer;
  }

  /**
   * Each day's totals from the stored readings, streamed through one day at a time: `fault`
   * readings count in no figure, each volume by the geometry valid at its reading, the in/out dead
   * band and the crest by the geometry in force (docs/water.md).
   */
  private async fromReadings(device: DeviceRecord, days: LocalDay[], events: number[], now: number): Promise<Computed[]> {
    const timeline = this.d.geometry.timeline(device.id);
    const { maxLevel } = levelThresholdsOf(device.settings);
    const { shape } = timeline.current;
    const fullVolumeM3 = shape ? volumeAt(shape, maxLevel).volumeM3 : null;
    const interval = readingIntervalS(device);
    const results: Computed[] = [];
    let own: SeriesPoint[] = [];
    let before: SeriesPoint | null = null;
    const finishDay = () => {
      const day = days[results.length]!;
      const points = before && day.fromMs - before.tsMs <= SERIES_LINK_MS ? [before, ...own] : own;
      const crestLevelM = timeline.at(Math.min(day.toMs, now) - 1).crestLevelM;
      const totals = dailyTotals({ ...day, points, crestLevelM, fullVolumeM3, readingIntervalS: interval, overflowEvents: events[results.length]!, nowMs: now });
      results.push({ totals, points: own.length === 0 ? 0 : points.length });
      if (own.length > 0) before = own[own.length - 1]!;
      own = [];
    };
    const range = { fromMs: days[0]!.fromMs - SERIES_LINK_MS, toMs: days[days.length - 1]!.toMs };
    reading: for await (const rows of this.d.readings(device.id, range)) {
      for (const row of rows) {
        const p = usablePoint(row, timeline);
        if (!p) continue;
        while (results.length < days.length && p.tsMs >= days[results.length]!.toMs) finishDay();
        if (results.length === days.length) break reading;
        if (p.tsMs < days[results.length]!.fromMs) before = p;
        else own.push(p);
      }
    }
    while (results.length < days.length) finishDay();
    return results;
  }
}

/** Whether a stored row already says what was just computed (no write needed). */
function sameAs(kept: StoredDailyTotals | undefined, c: Computed): boolean {
  return kept !== undefined && kept.points === c.points && JSON.stringify(kept.totals) === JSON.stringify(c.totals);
}
