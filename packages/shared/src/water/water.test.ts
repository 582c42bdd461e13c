import { describe, expect, it } from 'vitest';
import { waterAnalytics, type LevelPoint } from './analytics';
import { netFlowM3h, timeToEmptyS, timeToOverflowS } from './flow';
import { levelFromSensor, resolveGeometry, type GeometryInput, type TankShape } from './geometry';
import { referenceVolume, volumeAt } from './volume';

describe('volume at a level', () => {
  it('rectangular and vertical cylinder are linear in the level', () => {
    expect(volumeAt({ kind: 'rectangular', areaM2: 24 }, 2.5)).toEqual({ volumeM3: 60, quality: 'good' });
    expect(volumeAt({ kind: 'vertical_cylinder', diameterM: 16 }, 2).volumeM3).toBeCloseTo(Math.PI * 64 * 2, 9);
  });

  it('a horizontal cylinder is half full at half its diameter and full at the top', () => {
    const shape = { kind: 'horizontal_cylinder', diameterM: 2, lengthM: 10 } as const;
    const full = Math.PI * 1 * 10;
    expect(volumeAt(shape, 1).volumeM3).toBeCloseTo(full / 2, 9);
    expect(volumeAt(shape, 2).volumeM3).toBeCloseTo(full, 9);
    expect(volumeAt(shape, 0).volumeM3).toBe(0);
    // A quarter of the diameter: the segment formula, checked against its closed form.
    const r = 1;
    const h = 0.5;
    expect(volumeAt(shape, h).volumeM3).toBeCloseTo(10 * (r * r * Math.acos((r - h) / r) - (r - h) * Math.sqrt(2 * r * h - h * h)), 9);
  });

  it('clamps outside the shape and says so', () => {
    expect(volumeAt({ kind: 'rectangular', areaM2: 10 }, -0.2)).toEqual({ volumeM3: 0, quality: 'extrapolated' });
    const lying = volumeAt({ kind: 'horizontal_cylinder', diameterM: 2, lengthM: 1 }, 2.4);
    expect(lying.quality).toBe('extrapolated');
    expect(lying.volumeM3).toBeCloseTo(Math.PI, 9);
  });

  it('a strapping table interpolates linearly and holds its end volumes outside its points', () => {
    const table: TankShape = { kind: 'table', points: [{ levelM: 0.5, volumeM3: 10 }, { levelM: 1, volumeM3: 30 }, { levelM: 3, volumeM3: 70 }] };
    expect(volumeAt(table, 0.75)).toEqual({ volumeM3: 20, quality: 'good' });
    expect(volumeAt(table, 2)).toEqual({ volumeM3: 50, quality: 'good' });
    expect(volumeAt(table, 3)).toEqual({ volumeM3: 70, quality: 'good' });
    expect(volumeAt(table, 0.1)).toEqual({ volumeM3: 10, quality: 'extrapolated' });
    expect(volumeAt(table, 4)).toEqual({ volumeM3: 70, quality: 'extrapolated' });
  });

  it('the reference volume is at the crest where one is set, else at maxLevel', () => {
    const shape = { kind: 'rectangular', areaM2: 24 } as const;
    expect(referenceVolume({ shape, crestLevelM: 9 }, 10)).toBe(216);
    expect(referenceVolume({ shape, crestLevelM: null }, 10)).toBe(240);
    expect(referenceVolume({ shape: null, crestLevelM: 9 }, 10)).toBeNull();
  });
});

describe('geometry', () => {
  const ok = (input: GeometryInput, maxLevel = 10) => {
    const r = resolveGeometry(input, maxLevel);
    if ('problem' in r) throw new Error(`refused: ${JSON.stringify(r.problem)}`);
    return r.geometry;
  };
  const problem = (input: GeometryInput, maxLevel = 10) => {
    const r = resolveGeometry(input, maxLevel);
    return 'problem' in r ? r.problem : null;
  };

  it('an empty input is the never-configured default', () => {
    expect(ok({})).toEqual({ sensor: 'level', mountHeightM: null, zeroOffsetM: 0, crestLevelM: null, shape: null, weir: null, flowWindowS: 300, spill: { onDelayS: 30, offDelayS: 120, deadbandM: 0.02 } });
  });

  it('fills the weir coefficient and the spill settings left out', () => {
    const g = ok({ crestLevelM: 9, weir: { widthM: 1.5 }, spill: { onDelayS: 0 } });
    expect(g.weir).toEqual({ widthM: 1.5, coefficient: 0.62 });
    expect(g.spill).toEqual({ onDelayS: 0, offDelayS: 120, deadbandM: 0.02 });
  });

  it.each<[string, GeometryInput, string, string]>([
    ['a distance sensor without a mounting height', { sensor: 'distance' }, 'mountHeightM', 'required_positive_for_distance'],
    ['a mounting height on a level sensor', { mountHeightM: 3 }, 'mountHeightM', 'only_for_distance'],
    ['an offset beyond maxLevel', { zeroOffsetM: -10.5 }, 'zeroOffsetM', 'out_of_range'],
    ['a crest above maxLevel', { crestLevelM: 10.01 }, 'crestLevelM', 'out_of_range'],
    ['a crest at 0', { crestLevelM: 0 }, 'crestLevelM', 'out_of_range'],
    ['a zero area', { shape: { kind: 'rectangular', areaM2: 0 } }, 'shape.areaM2', 'must_be_positive'],
    ['a lying cylinder without length', { shape: { kind: 'horizontal_cylinder', diameterM: 2, lengthM: -1 } }, 'shape.lengthM', 'must_be_positive'],
    ['a table of one point', { shape: { kind: 'table', points: [{ levelM: 0, volumeM3: 0 }] } }, 'shape.points', 'count_out_of_range'],
    ['a table whose levels go back', { shape: { kind: 'table', points: [{ levelM: 1, volumeM3: 1 }, { levelM: 1, volumeM3: 2 }] } }, 'shape.points', 'levels_not_increasing'],
    ['a table whose volumes do not grow', { shape: { kind: 'table', points: [{ levelM: 0, volumeM3: 5 }, { levelM: 1, volumeM3: 5 }] } }, 'shape.points', 'volumes_not_increasing'],
    ['a negative volume', { shape: { kind: 'table', points: [{ levelM: 0, volumeM3: -1 }, { levelM: 1, volumeM3: 5 }] } }, 'shape.points', 'negative_volume'],
    ['a weir without a crest', { weir: { widthM: 1 } }, 'weir', 'needs_crest'],
    ['a weir coefficient above 1', { crestLevelM: 9, weir: { widthM: 1, coefficient: 1.2 } }, 'weir.coefficient', 'out_of_range'],
    ['a flow window under 30 s', { flowWindowS: 29 }, 'flowWindowS', 'out_of_range'],
    ['a spill delay over an hour', { spill: { offDelayS: 3601 } }, 'spill.offDelayS', 'out_of_range'],
    ['a deadband as deep as the crest', { crestLevelM: 0.5, spill: { deadbandM: 0.5 } }, 'spill.deadbandM', 'not_below_crest'],
  ])('refuses %s', (_name, input, field, reason) => {
    expect(problem(input)).toEqual({ field, reason });
  });

  it('a table of 500 points is taken, one of 501 is not', () => {
    const points = (n: number) => Array.from({ length: n }, (_, i) => ({ levelM: i / 100, volumeM3: i }));
    expect(problem({ shape: { kind: 'table', points: points(500) } })).toBeNull();
    expect(problem({ shape: { kind: 'table', points: points(501) } })).toEqual({ field: 'shape.points', reason: 'count_out_of_range' });
  });

  it('a distance sensor stores the mounting height less the distance, plus the offset', () => {
    expect(levelFromSensor({ sensor: 'distance', mountHeightM: 6, zeroOffsetM: 0.1 }, 2.5)).toBeCloseTo(3.6, 12);
    expect(levelFromSensor({ sensor: 'level', mountHeightM: null, zeroOffsetM: -0.05 }, 2.5)).toBeCloseTo(2.45, 12);
  });
});

describe('net flow and forecasts', () => {
  const start = Date.UTC(2026, 10, 28, 12);
  const filling = (n: number, everyS: number, m3PerH: number) => Array.from({ length: n }, (_, i) => ({ tsMs: start + i * everyS * 1000, volumeM3: 100 + (m3PerH * i * everyS) / 3600 }));

  it('is the least-squares slope in m³/h', () => {
    expect(netFlowM3h(filling(11, 30, 18.2), 300, 240)).toBeCloseTo(18.2, 9);
    expect(netFlowM3h(filling(11, 30, -12), 300, 240)).toBeCloseTo(-12, 9);
  });

  it('uses only the window before the newest reading', () => {
    const old = filling(5, 30, -50);
    const recent = filling(11, 30, 20).map((p) => ({ tsMs: p.tsMs + 3_600_000, volumeM3: p.volumeM3 }));
    expect(netFlowM3h([...old, ...recent], 300, 240)).toBeCloseTo(20, 9);
  });

  it('gives nothing with under 3 readings or under half a window, and 0 under 1 % of the full volume per hour', () => {
    expect(netFlowM3h(filling(2, 200, 18), 300, 240)).toBeNull();
    expect(netFlowM3h(filling(5, 30, 18), 300, 240)).toBeNull(); // 120 s < 150 s
    expect(netFlowM3h(filling(6, 30, 18), 300, 240)).toBeCloseTo(18, 9); // 150 s
    expect(netFlowM3h(filling(11, 30, 2.3), 300, 240)).toBe(0);
  });

  it('forecasts overflow only while filling and emptiness only while emptying', () => {
    expect(timeToOverflowS(100, 216, 58)).toBeCloseTo(7200, 9);
    expect(timeToOverflowS(220, 216, 5)).toBe(0);
    expect(timeToOverflowS(100, 216, 0)).toBeNull();
    expect(timeToOverflowS(100, 216, null)).toBeNull();
    expect(timeToEmptyS(100, -20)).toBeCloseTo(18000, 9);
    expect(timeToEmptyS(100, 20)).toBeNull();
  });
});

describe('analytics of a level sensor', () => {
  const geometry = { shape: { kind: 'rectangular', areaM2: 24 } as const, crestLevelM: 9, flowWindowS: 300 };
  const now = Date.UTC(2026, 10, 28, 12);
  const rising: LevelPoint[] = Array.from({ length: 11 }, (_, i) => ({ tsMs: now - (10 - i) * 30_000, levelM: 4 + i * 0.01, fault: false }));

  it('volume, fill against the crest, flow and time to overflow', () => {
    const a = waterAnalytics(geometry, 10, rising, now, 15)!;
    expect(a.volumeM3).toBeCloseTo(24 * 4.1, 9);
    expect(a.fillPct).toBeCloseTo((100 * 4.1) / 9, 9);
    // 0.01 m per 30 s over 24 m² = 28.8 m³/h.
    expect(a.netFlowM3h).toBeCloseTo(28.8, 9);
    expect(a.timeToOverflowS).toBeCloseTo(((216 - 98.4) * 3600) / 28.8, 6);
    expect(a.timeToEmptyS).toBeNull();
    expect(a).toMatchObject({ quality: 'good', at: new Date(now).toISOString() });
  });

  it('stale data keeps its volume but gets no flow and no forecast', () => {
    const a = waterAnalytics(geometry, 10, rising, now + 16_000, 15)!;
    expect(a.volumeM3).toBeCloseTo(98.4, 9);
    expect(a).toMatchObject({ netFlowM3h: null, timeToOverflowS: null, timeToEmptyS: null });
  });

  it('fault readings count in no figure; no shape or no usable reading gives null', () => {
    const withFault = [...rising, { tsMs: now + 1000, levelM: 99, fault: true }];
    expect(waterAnalytics(geometry, 10, withFault, now + 1000, 15)!.volumeM3).toBeCloseTo(98.4, 9);
    expect(waterAnalytics({ ...geometry, shape: null }, 10, rising, now, 15)).toBeNull();
    expect(waterAnalytics(geometry, 10, [{ tsMs: now, levelM: 99, fault: true }], now, 15)).toBeNull();
  });
});
