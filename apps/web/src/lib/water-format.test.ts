import { describe, expect, it } from 'vitest';
import type { WaterAnalytics } from '@agua/shared';
import { areFiguresStale, formatDuration, formatEta, formatFill, formatForecast, formatNetFlow, formatVolume, waterFigureTexts } from './water-format';

// The tests run outside a Spanish browser: the formatter falls back to plain 'es' (decimal comma).
const figures = (over: Partial<WaterAnalytics> = {}): WaterAnalytics => ({
  volumeM3: 123.44,
  fillPct: 57.1,
  netFlowM3h: 18.2,
  timeToOverflowS: 7800,
  timeToEmptyS: null,
  quality: 'good',
  at: '2026-11-24T10:00:00.000Z',
  ...over,
});

describe('formatVolume and formatFill', () => {
  it.each([
    [123.44, '123,4 m³'],
    [123.45001, '123,5 m³'],
    [0, '0,0 m³'],
    [216, '216,0 m³'],
    [1005.3, '1.005,3 m³'],
    [1_234_567.89, '1.234.567,9 m³'],
  ])('%d m³ → %s', (m3, text) => expect(formatVolume(m3)).toBe(text));

  it('prints the fill in whole percent', () => {
    expect(formatFill(57.4)).toBe('57 %');
    expect(formatFill(99.6)).toBe('100 %');
    expect(formatFill(0)).toBe('0 %');
  });
});

describe('formatNetFlow', () => {
  it('says in or out with a sign, the minus a true minus sign (U+2212)', () => {
    expect(formatNetFlow(18.24)).toBe('Entrada neta +18,2 m³/h');
    expect(formatNetFlow(-12)).toBe('Salida neta \u221212,0 m³/h');
    expect(formatNetFlow(-12)).not.toContain('-');
  });

  it("calls a zero flow 'Estable' and prints nothing for an unknown one", () => {
    expect(formatNetFlow(0)).toBe('Estable');
    expect(formatNetFlow(null)).toBeNull();
    expect(formatNetFlow(Number.NaN)).toBeNull();
  });
});

describe('formatEta', () => {
  it.each([
    [0, '< 1 min'],
    [59, '< 1 min'],
    [60, '≈ 1 min'],
    [12 * 60 + 10, '≈ 12 min'],
    [59 * 60 + 29, '≈ 59 min'],
    // 59 min 30 s rounds to the hour.
    [59 * 60 + 30, '≈ 1 h'],
    [2 * 3600 + 10 * 60, '≈ 2 h 10 min'],
    [5 * 3600 + 3 * 60 + 20, '≈ 5 h 3 min'],
    [23 * 3600 + 59 * 60 + 40, '≈ 1 d'],
    [27 * 3600, '≈ 1 d 3 h'],
    [27 * 3600 + 29 * 60, '≈ 1 d 3 h'],
    [27 * 3600 + 31 * 60, '≈ 1 d 4 h'],
    [47 * 3600 + 45 * 60, '≈ 2 d'],
    [10 * 86400, '≈ 10 d'],
  ])('%d s → %s', (s, text) => expect(formatEta(s)).toBe(text));
});

describe('formatDuration', () => {
  it.each([
    [0, '0 s'],
    [45, '45 s'],
    [60, '1 min'],
    [12 * 60 + 10, '12 min'],
    [2 * 3600 + 10 * 60, '2 h 10 min'],
    [3 * 3600, '3 h'],
    [27 * 3600, '1 d 3 h'],
  ])('%d s → %s', (s, text) => expect(formatDuration(s)).toBe(text));
});

describe('formatForecast', () => {
  it('forecasts the overflow while filling and the empty tank while emptying', () => {
    expect(formatForecast({ timeToOverflowS: 7800, timeToEmptyS: null })).toEqual({ kind: 'overflow', text: 'Desborde en ≈ 2 h 10 min' });
    expect(formatForecast({ timeToOverflowS: null, timeToEmptyS: 5 * 3600 + 180 })).toEqual({ kind: 'empty', text: 'Vacío en ≈ 5 h 3 min' });
    expect(formatForecast({ timeToOverflowS: 30, timeToEmptyS: null })?.text).toBe('Desborde en < 1 min');
  });

  it('says the crest is reached when the time is 0', () => {
    expect(formatForecast({ timeToOverflowS: 0, timeToEmptyS: null })?.text).toBe('Nivel de desborde alcanzado');
    expect(formatForecast({ timeToOverflowS: null, timeToEmptyS: 0 })?.text).toBe('Vacío');
  });

  it('invents nothing when the server gives no time', () => {
    expect(formatForecast({ timeToOverflowS: null, timeToEmptyS: null })).toBeNull();
  });
});

describe('waterFigureTexts', () => {
  it('prints every figure of a fresh reading', () => {
    expect(waterFigureTexts(figures(), false)).toEqual({
      volume: '123,4 m³',
      fill: '57 %',
      extrapolated: false,
      flow: 'Entrada neta +18,2 m³/h',
      direction: 'in',
      forecast: { kind: 'overflow', text: 'Desborde en ≈ 2 h 10 min' },
    });
    expect(waterFigureTexts(figures({ netFlowM3h: -12, timeToOverflowS: null, timeToEmptyS: 18_180 }), false)).toMatchObject({
      flow: 'Salida neta \u221212,0 m³/h',
      direction: 'out',
      forecast: { kind: 'empty', text: 'Vacío en ≈ 5 h 3 min' },
    });
    expect(waterFigureTexts(figures({ netFlowM3h: 0, timeToOverflowS: null }), false)).toMatchObject({ flow: 'Estable', direction: 'stable', forecast: null });
    expect(waterFigureTexts(figures({ quality: 'extrapolated' }), false)?.extrapolated).toBe(true);
  });

  it('shows no flow nor forecast when the server has none (too few readings, stale at the server)', () => {
    expect(waterFigureTexts(figures({ netFlowM3h: null, timeToOverflowS: null }), false)).toMatchObject({ volume: '123,4 m³', flow: null, direction: null, forecast: null });
  });

  it('shows nothing as current when the reading is stale here, even if the figures still carry a forecast', () => {
    expect(waterFigureTexts(figures(), true)).toEqual({ volume: null, fill: null, extrapolated: false, flow: null, direction: null, forecast: null });
  });

  it('is null without figures (no geometry, no reading)', () => {
    expect(waterFigureTexts(null, false)).toBeNull();
  });
});

describe('areFiguresStale', () => {
  const at = Date.parse('2026-11-24T10:00:00.000Z');
  it('is fresh up to the offline timeout, stale past it or when the device is offline', () => {
    expect(areFiguresStale({ at: new Date(at).toISOString() }, true, 15_000, at + 15_000)).toBe(false);
    expect(areFiguresStale({ at: new Date(at).toISOString() }, true, 15_000, at + 15_001)).toBe(true);
    expect(areFiguresStale({ at: new Date(at).toISOString() }, false, 15_000, at)).toBe(true);
    // A reading a little ahead of this clock (a device's clock drifts) is fresh.
    expect(areFiguresStale({ at: new Date(at + 5_000).toISOString() }, true, 15_000, at)).toBe(false);
  });
});
