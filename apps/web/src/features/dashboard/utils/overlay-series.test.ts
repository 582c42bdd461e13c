import { describe, expect, it } from 'vitest';
import type { Reading } from '@agua/shared';
import type { BucketTrend } from '../../../components/chart/level-series';
import { buildOverlayColumns, thresholdPercents } from './overlay-series';

const MIN = 60_000;
const t0 = Date.parse('2026-01-01T00:00:00Z');
const trendOf = (means: (number | null)[], toMin: number): BucketTrend => ({
  to: new Date(t0 + toMin * MIN).toISOString(),
  bucketMs: MIN,
  items: means.flatMap((mean, i) => (mean === null ? [] : [{ ts: new Date(t0 + i * MIN).toISOString(), min: mean, max: mean, mean }])),
});
const reading = (ms: number, value: number): Reading => ({ ts: new Date(ms).toISOString(), value, unit: 'm', status: 'normal' });
const mid = (i: number) => (t0 + i * MIN + MIN / 2) / 1000;

describe('buildOverlayColumns', () => {
  it('puts tanks of different sizes on one percent scale', () => {
    const data = buildOverlayColumns([
      { trend: trendOf([2, 3], 2), live: [], maxLevel: 4, gapMs: 3 * MIN },
      { trend: trendOf([5, 10], 2), live: [], maxLevel: 10, gapMs: 3 * MIN },
    ]);
    expect(data[0]).toEqual([mid(0), mid(1)]);
    expect(data[1]).toEqual([50, 75]);
    expect(data[2]).toEqual([50, 100]);
  });

  it("joins different times: undefined where only the other sensor has a point, each sensor's silence a null", () => {
    const a = trendOf([1, 1, 1, null, null, null, null, null, 1, 1], 10);
    // The second sensor's live readings fall between the buckets' middles.
    const b = { trend: undefined, live: [reading(t0 + 60_000, 2), reading(t0 + 63_000, 2)], maxLevel: 2, gapMs: 30_000 };
    const data = buildOverlayColumns([{ trend: a, live: [], maxLevel: 2, gapMs: 2.5 * MIN }, b]);
    const xs = data[0] as number[];
    expect(xs).toEqual([...xs].sort((x, y) => x - y));
    const first = data[1] as (number | null | undefined)[];
    const second = data[2] as (number | null | undefined)[];
    // The first sensor's outage (minutes 3–7) is one null between its points.
    expect(first.filter((v) => v === null)).toHaveLength(1);
    expect(first.filter((v) => v === 50)).toHaveLength(5);
    // The second sensor is defined only at its two readings; elsewhere undefined, never null.
    expect(second.filter((v) => v === 100)).toHaveLength(2);
    expect(second).not.toContain(null);
    expect(xs.indexOf((t0 + 63_000) / 1000)).toBeGreaterThan(-1);
    expect(first[xs.indexOf((t0 + 63_000) / 1000)]).toBeUndefined();
  });

  it('with no sensors gives an empty x column', () => {
    expect(buildOverlayColumns([])).toEqual([[]]);
  });
});

describe('thresholdPercents', () => {
  it('lists each distinct percent once, ascending', () => {
    expect(
      thresholdPercents([
        { warningPct: 70, criticalPct: 90 },
        { warningPct: 60, criticalPct: 90 },
        { warningPct: 60, criticalPct: 85 },
      ]),
    ).toEqual({ warning: [60, 70], critical: [85, 90] });
  });
});
