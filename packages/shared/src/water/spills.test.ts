import { describe, expect, it } from 'vitest';
import { detectSpills, spills1224, weirFlowM3s } from './spills';

const S = 1000;
const H = 3_600_000;
const t0 = Date.UTC(2026, 10, 28, 0);
const spill = { onDelayS: 30, offDelayS: 120, deadbandM: 0.02 };
/** Readings every 10 s from t0 with these levels. */
const every10s = (levels: number[]) => levels.map((levelM, i) => ({ tsMs: t0 + i * 10 * S, levelM }));

describe('spill events', () => {
  it('opens after readings at or above the crest span the on-delay, starting at the first of them', () => {
    const readings = every10s([8.9, 9.0, 9.1, 9.2, 9.1, 9.05]);
    expect(detectSpills(readings, 9, spill, null)).toEqual([{ startedAtMs: t0 + 10 * S, endedAtMs: null, peakLevelM: 9.2, volumeM3: null }]);
  });

  it('a short excursion or one broken by a reading below the crest opens nothing', () => {
    expect(detectSpills(every10s([9.1, 9.1, 9.1, 8.9, 9.1, 9.1, 9.1]), 9, spill, null)).toEqual([]);
  });

  it('closes after readings below crest − deadband span the off-delay, ending at the first of them', () => {
    const levels = [9.1, 9.1, 9.1, 9.1, 8.99, 8.985, ...Array(13).fill(8.5)];
    // 8.99 and 8.985 are below the crest but within the deadband (8.98): they do not start the end.
    const [event] = detectSpills(every10s(levels), 9, spill, null);
    expect(event).toMatchObject({ startedAtMs: t0, endedAtMs: t0 + 60 * S, peakLevelM: 9.1 });
  });

  it('a reading back above crest − deadband restarts the closing', () => {
    const levels = [9.1, 9.1, 9.1, 9.1, 8.5, 8.5, 8.99, ...Array(13).fill(8.5)];
    const [event] = detectSpills(every10s(levels), 9, spill, null);
    expect(event!.endedAtMs).toBe(t0 + 70 * S);
  });

  it('with a weir, the volume is the trapezoidal integral of its flow from start to end', () => {
    const weir = { widthM: 1.5, coefficient: 0.62 };
    const levels = [9.2, 9.2, 9.2, 9.2, ...Array(13).fill(8.5)];
    const [event] = detectSpills(every10s(levels), 9, { ...spill, onDelayS: 0 }, weir);
    const q = weirFlowM3s(weir, 0.2);
    // 9.2 for 30 s, then a trapezoid down to 0 over the next 10 s.
    expect(event!.volumeM3).toBeCloseTo(q * 30 + (q / 2) * 10, 9);
    expect(q).toBeCloseTo(0.62 * (2 / 3) * 1.5 * Math.sqrt(2 * 9.81) * 0.2 ** 1.5, 12);
    expect(weirFlowM3s(weir, -0.1)).toBe(0);
  });
});

describe('the 12/24 spill count', () => {
  const ev = (startH: number, endH: number | null) => ({ startedAtMs: t0 + startH * H, endedAtMs: endH === null ? null : t0 + endH * H });

  it('spills within 12 h of the first count one', () => {
    expect(spills1224([ev(0, 1), ev(5, 6), ev(11, 11.5)], t0 + 100 * H)).toBe(1);
  });

  it('each following 24-h block with any spilling counts one more', () => {
    expect(spills1224([ev(0, 1), ev(13, 14)], t0 + 100 * H)).toBe(2);
    // A spill lasting 40 h: first 12 h, then blocks 12–36 and 36–60 both hold spilling.
    expect(spills1224([ev(0, 40)], t0 + 100 * H)).toBe(3);
  });

  it('after a block without spilling the next spill starts a new count', () => {
    // Blocks: 0–12 (1), 12–36 empty → stop; the spill at 40 h starts again.
    expect(spills1224([ev(0, 1), ev(40, 41)], t0 + 100 * H)).toBe(2);
    expect(spills1224([], t0)).toBe(0);
  });

  it('an open spill spills until now', () => {
    expect(spills1224([ev(0, null)], t0 + 13 * H)).toBe(2);
  });
});
