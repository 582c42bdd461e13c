import { describe, expect, it } from 'vitest';
import { DEFAULT_GEOMETRY, detectSpills, type DetectedSpill, type Geometry } from '@agua/shared';
import { LiveSpills } from './live-spills';

const S = 1000;
const t0 = Date.UTC(2026, 10, 28, 12);
const spill = { onDelayS: 20, offDelayS: 30, deadbandM: 0.05 };
const withCrest: Geometry = { ...DEFAULT_GEOMETRY, crestLevelM: 4, spill };

/** A LiveSpills over a geometry timeline (newest version first) and the changes it tells. */
function setup(versions: Array<{ fromMs: number; geometry: Geometry }>) {
  const spills = new LiveSpills((_id, tsMs) => (versions.find((v) => v.fromMs <= tsMs) ?? versions[versions.length - 1]!).geometry);
  const told: Array<[string, string, DetectedSpill]> = [];
  spills.on({ opened: (id, s) => told.push(['opened', id, s]), closed: (id, s) => told.push(['closed', id, s]) });
  return { spills, told };
}
const row = (tsMs: number, valueNum: number, status: 'normal' | 'fault' = 'normal') => ({ tsMs, valueNum, status });

describe('live spills (docs/water.md "Spills")', () => {
  it('the same spills as detectSpills over the same readings, told as they open and close; a batch in any order', () => {
    const { spills, told } = setup([{ fromMs: 0, geometry: withCrest }]);
    const levels = [3.9, 4.1, 4.2, 4.1, 4.0, 3.9, 3.8, 3.8, 3.8, 3.8, 4.3, 4.3, 4.3];
    const readings = levels.map((levelM, i) => ({ tsMs: t0 + i * 10 * S, levelM }));
    const rows = readings.map((r) => row(r.tsMs, r.levelM));
    spills.addRows('d', rows.slice(0, 6).reverse());
    spills.addRows('d', rows.slice(6));
    const [first, second] = detectSpills(readings, 4, spill, null);
    expect(told).toEqual([
      ['opened', 'd', { ...first!, endedAtMs: null, peakLevelM: 4.2 }],
      ['closed', 'd', first],
      ['opened', 'd', { ...second!, endedAtMs: null }],
    ]);
    expect(spills.openOf('d')).toEqual({ spill: second, crestM: 4 });
  });

  it('leaves out readings no newer than the newest judged, and fault readings', () => {
    const { spills, told } = setup([{ fromMs: 0, geometry: withCrest }]);
    expect(spills.add('d', t0, 4.5, false)).toBe(true);
    expect(spills.add('d', t0, 4.5, false)).toBe(false);
    expect(spills.add('d', t0 - S, 4.5, false)).toBe(false);
    expect(spills.add('d', t0 + 30 * S, 4.5, true)).toBe(false);
    expect(told).toEqual([]);
    spills.add('d', t0 + 20 * S, 4.5, false);
    expect(told.map(([kind]) => kind)).toEqual(['opened']);
  });

  it('follows the geometry valid at each reading; a version without a crest ends an open spill there', () => {
    const { spills, told } = setup([
      { fromMs: t0 + 100 * S, geometry: DEFAULT_GEOMETRY },
      { fromMs: t0 + 50 * S, geometry: { ...withCrest, crestLevelM: 3 } },
      { fromMs: 0, geometry: withCrest },
    ]);
    spills.addRows('d', [row(t0, 3.5), row(t0 + 40 * S, 3.5)]);
    expect(told).toEqual([]);
    // From 50 s the crest is 3 m: 3.5 m spills (20 s on-delay).
    spills.addRows('d', [row(t0 + 60 * S, 3.5), row(t0 + 80 * S, 3.5)]);
    expect(told.map(([kind, , s]) => [kind, s.startedAtMs])).toEqual([['opened', t0 + 60 * S]]);
    spills.add('d', t0 + 110 * S, 3.5, false);
    expect(told[1]).toEqual(['closed', 'd', expect.objectContaining({ startedAtMs: t0 + 60 * S, endedAtMs: t0 + 110 * S })]);
    expect(spills.openOf('d')).toBeNull();
  });
});
