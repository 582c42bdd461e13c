import { describe, expect, it } from 'vitest';
import type { AnalyticsItem } from '../api/get-device-analytics';
import { buildVolumeColumns } from './volume-series';

const T0 = Date.parse('2026-11-24T10:00:00.000Z');
const item = (minute: number, volumeM3: number | null): AnalyticsItem => ({
  ts: new Date(T0 + minute * 60_000).toISOString(),
  level: 1,
  volumeM3,
  netFlowM3h: null,
  inflowM3: null,
  outflowM3: null,
});

describe('buildVolumeColumns', () => {
  it('draws each bucket at its middle and ends with the current volume', () => {
    const { data, count } = buildVolumeColumns([item(0, 10), item(1, 12)], 60_000, { tsMs: T0 + 150_000, volumeM3: 13 }, 60_000);
    expect(data[0]).toEqual([(T0 + 30_000) / 1000, (T0 + 90_000) / 1000, (T0 + 150_000) / 1000]);
    expect(data[1]).toEqual([10, 12, 13]);
    expect(count).toBe(3);
  });

  it('leaves out a current volume no newer than the curve, and buckets without a volume', () => {
    const { data } = buildVolumeColumns([item(0, 10), item(1, null), item(2, 11)], 60_000, { tsMs: T0 + 120_000, volumeM3: 99 }, 60_000);
    expect(data[1]).toEqual([10, 11]);
  });

  it('breaks the line where the sensor was silent', () => {
    const items = [item(0, 10), item(1, 10), item(2, 10), item(30, 20), item(31, 20)];
    const { data, count } = buildVolumeColumns(items, 60_000, null, 150_000);
    expect(count).toBe(5);
    expect(data[1]).toEqual([10, 10, 10, null, 20, 20]);
  });

  it('is empty without buckets nor figures', () => {
    expect(buildVolumeColumns(undefined, 60_000, null, 60_000)).toEqual({ data: [[], []], count: 0 });
  });
});
