import { completenessPct, FLOW_WALK_DEADBAND_FRACTION, inflowOutflow, periodSeries, secondsAboveCrest, type SeriesPoint } from './series';

/** The most days one `GET /devices/{id}/daily` may ask for: a (leap) year. */
export const MAX_DAILY_DAYS = 366;

/** One local day of a level sensor (docs/water.md "Daily totals"). */
export interface DailyTotals {
  /** YYYY-MM-DD, local (TZ). */
  date: string;
  minLevelM: number | null;
  maxLevelM: number | null;
  meanLevelM: number | null;
  volumeStartM3: number | null;
  volumeEndM3: number | null;
  inflowM3: number | null;
  outflowM3: number | null;
  secondsAboveCrest: number | null;
  overflowEvents: number;
  completenessPct: number;
}

export interface DayInput {
  date: string;
  /** The day's bounds: local midnight to the next (23–25 h). */
  fromMs: number;
  toMs: number;
  /**
   * Usable readings in time order, each with its volume by the geometry valid at its time (null
   * without a shape): the day's, and those just around it (for the series' start and the crest).
   */
  points: readonly SeriesPoint[];
  /** The crest (of the geometry in force over the day); null: no time above it is counted. */
  crestLevelM: number | null;
  /** V(maxLevel) by the current geometry: the dead band of the in/out walk is 0.2 % of it. */
  fullVolumeM3: number | null;
  /** The sensor's `config.readingIntervalS`: completeness counts slots of max(60 s, this). */
  readingIntervalS: number;
  /** Overflow events started that day: counted by the events feature, which owns them. */
  overflowEvents: number;
  nowMs: number;
}

/**
 * The day's figures (docs/water.md "Daily totals"): level extremes and mean of its own readings;
 * start and end volumes, water in and out from its series (which may open with the last reading
 * of the day before, at most 15 minutes older), so that end − start = in − out; the time at or
 * above the crest; the share of its slots that hold a reading. A day without readings has null
 * figures, no events and completeness 0; without a crest the time above it is null.
 */
export function dailyTotals(day: DayInput): DailyTotals {
  const own = day.points.filter((p) => p.tsMs >= day.fromMs && p.tsMs < day.toMs);
  const empty: DailyTotals = {
    date: day.date,
    minLevelM: null,
    maxLevelM: null,
    meanLevelM: null,
    volumeStartM3: null,
    volumeEndM3: null,
    inflowM3: null,
    outflowM3: null,
    secondsAboveCrest: null,
    overflowEvents: 0,
    completenessPct: 0,
  };
  if (own.length === 0) return empty;
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  for (const p of own) {
    min = Math.min(min, p.levelM);
    max = Math.max(max, p.levelM);
    sum += p.levelM;
  }
  const series = periodSeries(day.points, day.fromMs, day.toMs);
  const volumes = series.map((p) => p.volumeM3).filter((v): v is number => v !== null);
  const flows = day.fullVolumeM3 === null || volumes.length === 0 ? null : inflowOutflow(volumes, FLOW_WALK_DEADBAND_FRACTION * day.fullVolumeM3);
  return {
    ...empty,
    overflowEvents: day.overflowEvents,
    minLevelM: min,
    maxLevelM: max,
    meanLevelM: sum / own.length,
    volumeStartM3: volumes[0] ?? null,
    volumeEndM3: volumes[volumes.length - 1] ?? null,
    inflowM3: flows?.inflowM3 ?? null,
    outflowM3: flows?.outflowM3 ?? null,
    secondsAboveCrest: day.crestLevelM === null ? null : secondsAboveCrest(day.points, day.crestLevelM, day.fromMs, day.toMs, day.nowMs),
    completenessPct: completenessPct(
      own.map((p) => p.tsMs),
      day.fromMs,
      day.toMs,
      day.nowMs,
      day.readingIntervalS,
    ),
  };
}
