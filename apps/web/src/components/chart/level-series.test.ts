import { describe, expect, it } from 'vitest';
import type { Reading } from '@agua/shared';
import type uPlot from 'uplot';
import { buildLevelColumns, columnsSince, medianSpacing, type BucketTrend } from './level-series';

const MIN = 60_000;
const t0 = Date.parse('2026-01-01T00:00:00Z');
const bucket = (i: number, v: number) => ({ ts: new Date(t0 + i * MIN).toISOString(), min: v - 1, max: v + 1, mean: v, count: 3 });
const trend = (items: BucketTrend['items'], toMin: number): BucketTrend => ({ to: new Date(t0 + toMin * MIN).toISOString(), bucketMs: MIN, items });
const reading = (ms: number, value: number): Reading => ({ ts: new Date(ms).toISOString(), value, unit: 'm', status: 'normal' });

describe('buildLevelColumns', () => {
  it('draws buckets at their middle, in seconds', () => {
    const { data, count } = buildLevelColumns(trend([bucket(0, 2), bucket(1, 3)], 2), [], 5 * MIN);
    expect(count).toBe(2);
    expect(data[0]).toEqual([(t0 + MIN / 2) / 1000, (t0 + 1.5 * MIN) / 1000]);
    expect(data[1]).toEqual([1, 2]);
    expect(data[2]).toEqual([3, 4]);
    expect(data[3]).toEqual([2, 3]);
  });

  it('inserts a null row where the device was silent', () => {
    const items = [0, 1, 2, 3, 20, 21].map((i) => bucket(i, 1));
    const { data } = buildLevelColumns(trend(items, 22), [], 2.5 * MIN);
    expect(data[3]).toEqual([1, 1, 1, 1, null, 1, 1]);
  });

  it('does not take sparse stored history (slower than the buckets) for gaps', () => {
    const items = [0, 2, 4, 6, 8].map((i) => bucket(i, 1));
    const { data } = buildLevelColumns(trend(items, 10), [], 1.5 * MIN);
    expect(data[3]).not.toContain(null);
  });

  it('appends only live readings newer than the trend', () => {
    const live = [reading(t0 + MIN, 9), reading(t0 + 2 * MIN + 1000, 4), reading(t0 + 2 * MIN + 4000, 5)];
    const { data, count } = buildLevelColumns(trend([bucket(0, 1), bucket(1, 1)], 2), live, 5 * MIN);
    expect(count).toBe(4);
    expect(data[3]).toEqual([1, 1, 4, 5]);
  });

  it('medianSpacing is the middle gap', () => {
    expect(medianSpacing([0, 1, 2, 10])).toBe(1);
    expect(medianSpacing([5])).toBe(0);
  });
});

describe('columnsSince', () => {
  const data: uPlot.AlignedData = [
    [10, 20, 30, 40],
    [1, 2, 3, 4],
  ];

  it('drops what is older than the window but keeps the point just before it', () => {
    expect(columnsSince(data, 25)).toEqual([
      [20, 30, 40],
      [2, 3, 4],
    ]);
  });

  it('keeps everything when the window starts before the first point, and the last point when all are older', () => {
    expect(columnsSince(data, 5)).toBe(data);
    expect(columnsSince(data, 100)).toEqual([[40], [4]]);
  });
});
