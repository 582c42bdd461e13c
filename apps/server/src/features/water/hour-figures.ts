import { OpenBucket, SERIES_LINK_MS, type BucketState, type LinkPoint } from '@agua/shared';
import type { ReadingBatches } from './reading-points';
import type { GeometryTimeline } from './geometry.service';
import { localMidnight, nextLocalMidnight } from './local-days';
import { usablePoint } from './reading-points';

export const HOUR_MS = 3_600_000;

/** One UTC hour's stored figures (docs/water.md "Analytics: how they are answered"). */
export interface HourFigures {
  hourMs: number;
  /** The hour bucket as the scan of step=1h gathers it. */
  hour: BucketState;
  /** The local midnight starting the hour's day; null where that day does not start and end on whole UTC hours. */
  dayFromMs: number | null;
  /** The hour's local day gathered up to the hour's end, as the scan of step=1d would have it then. */
  day: BucketState | null;
  /** The oldest reading the figures depend on; null for none. */
  sinceMs: number | null;
}

/** Whether a local day's figures can be kept per UTC hour: it starts and ends on whole hours (not in zones at :30 or :45). */
export function dayOnWholeHours(dayFromMs: number, dayToMs: number): boolean {
  return dayFromMs % HOUR_MS === 0 && dayToMs % HOUR_MS === 0;
}

/**
 * The figures of every UTC hour of [fromMs, toMs) (whole hours), from the device's readings:
 * each hour bucket opened with the last reading before it, and each local day walked from its
 * midnight, exactly as the scan of `GET …/analytics` would; `emit` gets them hour by hour, in order.
 * The readings are read from the series link before the first hour's local midnight; the answer
 * says from when, and how many rows (of any status) were read.
 */
export async function computeHourFigures(
  readings: ReadingBatches,
  deviceId: string,
  timeline: GeometryTimeline,
  deadbandM3: number | null,
  range: { fromMs: number; toMs: number },
  emit: (figures: HourFigures) => void | Promise<void>,
): Promise<{ readFromMs: number; rows: number }> {
  const firstDay = localMidnight(range.fromMs);
  // Hours before fromMs are walked (their day's figures lead up to it) but not emitted.
  const startMs = dayOnWholeHours(firstDay, nextLocalMidnight(firstDay)) ? Math.min(firstDay, range.fromMs) : range.fromMs;
  let previous: LinkPoint | null = null;
  let hourMs = startMs;
  let hour = OpenBucket.opening(hourMs, null, deadbandM3);
  // The local day the current hour starts in; its bucket is null where the day is not on whole hours.
  const day: { fromMs: number; toMs: number; bucket: OpenBucket | null } = { fromMs: 0, toMs: -Infinity, bucket: null };
  const enter = (at: number) => {
    hour = OpenBucket.opening(at, previous, deadbandM3);
    if (at < day.toMs) return;
    day.fromMs = localMidnight(at);
    day.toMs = nextLocalMidnight(day.fromMs);
    day.bucket = dayOnWholeHours(day.fromMs, day.toMs) ? OpenBucket.opening(day.fromMs, previous, deadbandM3) : null;
  };
  const leave = async () => {
    if (hourMs >= range.fromMs) {
      const dayState = day.bucket?.snapshot() ?? null;
      const hourState = hour.snapshot();
      const since = [hourState.sinceMs, dayState?.sinceMs ?? null].filter((t): t is number => t !== null);
      await emit({ hourMs, hour: hourState, dayFromMs: dayState ? day.fromMs : null, day: dayState, sinceMs: since.length > 0 ? Math.min(...since) : null });
    }
    hourMs += HOUR_MS;
  };
  let seen = 0;
  let started = false;
  const readFromMs = startMs - SERIES_LINK_MS;
  for await (const rows of readings(deviceId, { fromMs: readFromMs, toMs: range.toMs })) {
    seen += rows.length;
    for (const row of rows) {
      const p = usablePoint(row, timeline);
      if (!p) continue;
      if (p.tsMs >= startMs) {
        if (!started) {
          enter(hourMs);
          started = true;
        }
        while (p.tsMs >= hourMs + HOUR_MS) {
          await leave();
          enter(hourMs);
        }
        hour.add(p);
        day.bucket?.add(p);
      }
      previous = p;
    }
  }
  if (!started) enter(hourMs);
  while (hourMs < range.toMs) {
    await leave();
    if (hourMs < range.toMs) enter(hourMs);
  }
  return { readFromMs, rows: seen };
}
