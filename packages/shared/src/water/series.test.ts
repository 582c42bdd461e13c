import { describe, expect, it } from 'vitest';
import { dailyTotals, type DayInput } from './daily';
import { completenessPct, inflowOutflow, periodSeries, secondsAboveCrest, SERIES_LINK_MS } from './series';

const MIN = 60_000;
const day0 = Date.UTC(2026, 10, 27, 23); // a local midnight (Europe/Madrid, UTC+1)
const day1 = day0 + 24 * 60 * MIN;

describe('a period’s series', () => {
  const at = (m: number) => ({ tsMs: day0 + m * MIN });

  it('is its readings, preceded by the last one before it when at most 15 minutes older', () => {
    expect(periodSeries([at(-15), at(5), at(10), at(24 * 60)], day0, day1)).toEqual([at(-15), at(5), at(10)]);
    expect(periodSeries([at(-16), at(5)], day0, day1)).toEqual([at(5)]);
    expect(periodSeries([at(-1)], day0, day1)).toEqual([at(-1)]);
    expect(periodSeries([], day0, day1)).toEqual([]);
  });
});

describe('water in and out', () => {
  it('keeps end − start = in − out, and ripples inside the band count in neither', () => {
    const volumes = [100, 100.1, 99.9, 110, 109.95, 105, 130, 129.9];
    const r = inflowOutflow(volumes, 0.5)!;
    expect(r.inflowM3).toBeCloseTo(10 + 25, 9); // 100→110 and 105→130
    expect(r.outflowM3).toBeCloseTo(5 + 0.1, 9); // 110→105, and the end's −0.1 goes out
    expect(r.inflowM3 - r.outflowM3).toBeCloseTo(volumes.at(-1)! - volumes[0]!, 9);
  });

  it('a flat series has nothing in or out; an empty one has no figure', () => {
    expect(inflowOutflow([50, 50.1, 49.9, 50], 0.5)).toEqual({ inflowM3: 0, outflowM3: 0 });
    expect(inflowOutflow([], 0.5)).toBeNull();
  });
});

describe('time above the crest', () => {
  const p = (m: number, levelM: number) => ({ tsMs: day0 + m * MIN, levelM });

  it('each reading at or above counts until the next, at most 15 minutes, inside the period', () => {
    const points = [p(-5, 9.2), p(10, 8), p(20, 9), p(25, 9.5), p(60, 8.5)];
    // -5 → 10 clipped to 0 → 10 (10 min); 20 → 25 (5 min); 25 → 40 (15 min cap).
    expect(secondsAboveCrest(points, 9, day0, day1, day1 + MIN)).toBe(30 * 60);
  });

  it('never past now or the end of the period', () => {
    expect(secondsAboveCrest([p(0, 9.5)], 9, day0, day1, day0 + 4 * MIN)).toBe(4 * 60);
    expect(secondsAboveCrest([p(24 * 60 - 2, 9.5)], 9, day0, day1, day1 + SERIES_LINK_MS)).toBe(2 * 60);
  });
});

describe('completeness', () => {
  it('counts slots of max(60 s, the reading interval) that hold a reading', () => {
    const every3s = Array.from({ length: 20 * 10 }, (_, i) => day0 + i * 3000); // 10 minutes
    expect(completenessPct(every3s, day0, day1, day1, 3)).toBeCloseTo((100 * 10) / 1440, 9);
    const every5min = Array.from({ length: 288 }, (_, i) => day0 + i * 5 * MIN);
    expect(completenessPct(every5min, day0, day1, day1, 300)).toBe(100);
  });

  it('a day still running counts the slots begun so far', () => {
    expect(completenessPct([day0 + 30_000, day0 + 90_000], day0, day1, day0 + 150_000, 3)).toBeCloseTo((100 * 2) / 3, 9);
    expect(completenessPct([], day0, day1, day0 - 1, 3)).toBe(0);
  });
});

describe('daily totals', () => {
  const base: Omit<DayInput, 'points'> = { date: '2026-11-28', fromMs: day0, toMs: day1, crestLevelM: 9, fullVolumeM3: 240, readingIntervalS: 60, overflowEvents: 1, nowMs: day1 + MIN };
  const q = (m: number, levelM: number) => ({ tsMs: day0 + m * MIN, levelM, volumeM3: 24 * levelM });

  it('min, max and mean of the day’s own readings; volumes from the series, which may start the day before', () => {
    const t = dailyTotals({ ...base, points: [q(-10, 2), q(0, 3), q(60, 5), q(120, 4)] });
    expect(t).toMatchObject({ date: '2026-11-28', minLevelM: 3, maxLevelM: 5, meanLevelM: 4, volumeStartM3: 48, volumeEndM3: 96, overflowEvents: 1, secondsAboveCrest: 0 });
    expect(t.inflowM3! - t.outflowM3!).toBeCloseTo(96 - 48, 9);
    expect(t.inflowM3).toBeCloseTo(72, 9);
    expect(t.outflowM3).toBeCloseTo(24, 9);
    expect(t.completenessPct).toBeCloseTo((100 * 3) / 1440, 9);
  });

  it('without readings: null figures, completeness 0; without a crest no time above it; without a shape no volumes', () => {
    expect(dailyTotals({ ...base, overflowEvents: 0, points: [q(-10, 2)] })).toEqual({
      date: '2026-11-28',
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
    });
    expect(dailyTotals({ ...base, crestLevelM: null, points: [q(1, 2)] }).secondsAboveCrest).toBeNull();
    const noShape = dailyTotals({ ...base, fullVolumeM3: null, points: [{ tsMs: day0 + MIN, levelM: 2, volumeM3: null }] });
    expect(noShape).toMatchObject({ minLevelM: 2, volumeStartM3: null, inflowM3: null, outflowM3: null });
  });
});
