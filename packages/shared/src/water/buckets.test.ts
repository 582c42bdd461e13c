import { describe, expect, it } from 'vitest';
import { AnalyticsBuckets, OpenBucket, analyticsBuckets } from './buckets';

const MIN = 60_000;
const t0 = Date.UTC(2026, 10, 28, 10);
const p = (m: number, levelM: number, area: number | null = 24) => ({ tsMs: t0 + m * MIN, levelM, volumeM3: area === null ? null : area * levelM });

describe('analytics buckets', () => {
  const hours = [t0, t0 + 60 * MIN, t0 + 120 * MIN, t0 + 180 * MIN];

  it('means per bucket, empty buckets left out, flows walked over each bucket’s series', () => {
    const points = [p(0, 2), p(30, 3), p(59, 4), p(125, 4), p(150, 3)];
    const items = analyticsBuckets(points, hours, 0.48);
    expect(items.map((i) => i.tsMs)).toEqual([t0, t0 + 120 * MIN]);
    expect(items[0]).toMatchObject({ level: 3, volumeM3: 72, inflowM3: 48, outflowM3: 0 });
    // 48 m³ over the 59 minutes the series spans.
    expect(items[0]!.netFlowM3h).toBeCloseTo(48 / (59 / 60), 9);
    // 00:59's reading is 61 minutes older than the 02:00 bucket: not part of its series.
    expect(items[1]).toMatchObject({ level: 3.5, volumeM3: 84, inflowM3: 0, outflowM3: 24 });
    expect(items[1]!.netFlowM3h).toBeCloseTo(-24 / (25 / 60), 9);
  });

  it('a bucket’s series starts with the last reading before it when at most 15 minutes older', () => {
    const items = analyticsBuckets([p(50, 2), p(65, 3)], hours, 0.48);
    expect(items).toHaveLength(2);
    expect(items[1]).toMatchObject({ level: 3, inflowM3: 24, outflowM3: 0 });
    expect(items[1]!.netFlowM3h).toBeCloseTo(24 / (15 / 60), 9);
  });

  it('a reading before the first edge only opens the first series', () => {
    const items = analyticsBuckets([p(-10, 1), p(5, 2)], hours, 0.48);
    expect(items).toEqual([{ tsMs: t0, level: 2, volumeM3: 48, netFlowM3h: 24 / (15 / 60), inflowM3: 24, outflowM3: 0 }]);
  });

  it('without a shape: levels only; a lone reading has no net flow', () => {
    const [bucket] = analyticsBuckets([p(10, 2, null)], hours, null);
    expect(bucket).toEqual({ tsMs: t0, level: 2, volumeM3: null, netFlowM3h: null, inflowM3: null, outflowM3: null });
    expect(analyticsBuckets([p(10, 2)], hours, 0.48)[0]).toMatchObject({ inflowM3: 0, outflowM3: 0, netFlowM3h: null });
  });

  it('a bucket resumed from a stored state ends exactly as one fed every reading', () => {
    // Noisy levels around a fill and a drain: sums and the walk's path must match to the last bit.
    const points = Array.from({ length: 170 }, (_, m) => p(m + 5, 3 + Math.sin(m / 20) * 2 + ((m * 7919) % 13) / 1000));
    const day = [t0, t0 + 180 * MIN];
    const straight = analyticsBuckets(points, day, 0.48);
    for (const cut of [1, 56, 90, 169]) {
      const part = OpenBucket.opening(t0, null, 0.48);
      for (const q of points.slice(0, cut)) part.add(q);
      // A stored state travels as JSON.
      const rest = new AnalyticsBuckets(day, 0.48, JSON.parse(JSON.stringify(part.snapshot())));
      for (const q of points.slice(cut)) rest.add(q);
      expect(rest.finish()).toEqual(straight);
      expect(part.result(t0)).not.toEqual(straight[0]);
    }
  });
});
