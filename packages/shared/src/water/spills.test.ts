import { describe, expect, it } from 'vitest';
import { detectSpills, SpillTracker, spills1224, weirFlowM3s } from './spills';

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

/**
 * The list rule as it was written before the incremental tracker (indices into the readings): an
 * independent statement of docs/water.md "Overflow events" to hold the tracker to.
 */
function listSpills(readings: readonly { tsMs: number; levelM: number }[], crestM: number, s: typeof spill, weir: { widthM: number; coefficient: number } | null) {
  const out: Array<{ startedAtMs: number; endedAtMs: number | null; peakLevelM: number; volumeM3: number | null }> = [];
  const describe = (from: number, to: number, ended: boolean) => {
    let peak = -Infinity;
    let volume = 0;
    for (let i = from; i <= to; i++) {
      peak = Math.max(peak, readings[i]!.levelM);
      if (weir && i > from) {
        const a = readings[i - 1]!;
        const b = readings[i]!;
        volume += ((weirFlowM3s(weir, a.levelM - crestM) + weirFlowM3s(weir, b.levelM - crestM)) / 2) * ((b.tsMs - a.tsMs) / 1000);
      }
    }
    return { startedAtMs: readings[from]!.tsMs, endedAtMs: ended ? readings[to]!.tsMs : null, peakLevelM: peak, volumeM3: weir ? volume : null };
  };
  let openFrom: number | null = null;
  let open = false;
  let closeFrom: number | null = null;
  for (let i = 0; i < readings.length; i++) {
    const { tsMs, levelM } = readings[i]!;
    if (!open) {
      if (levelM < crestM) {
        openFrom = null;
        continue;
      }
      openFrom ??= i;
      if (tsMs - readings[openFrom]!.tsMs >= s.onDelayS * 1000) open = true;
      continue;
    }
    if (levelM >= crestM - s.deadbandM) {
      closeFrom = null;
      continue;
    }
    closeFrom ??= i;
    if (tsMs - readings[closeFrom]!.tsMs >= s.offDelayS * 1000) {
      out.push(describe(openFrom!, closeFrom, true));
      open = false;
      openFrom = null;
      closeFrom = null;
    }
  }
  if (open) out.push(describe(openFrom!, readings.length - 1, false));
  return out;
}

/** A level wandering around the crest: a small deterministic generator (no randomness between runs). */
function wandering(count: number, seed: number): Array<{ tsMs: number; levelM: number }> {
  let x = seed;
  const next = () => {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    return x / 2_147_483_648;
  };
  let ts = t0;
  return Array.from({ length: count }, (_, i) => {
    ts += 1000 + Math.floor(next() * 20_000);
    return { tsMs: ts, levelM: 9 + 0.2 * Math.sin(i / 40 + seed) + (next() - 0.5) * 0.1 };
  });
}

describe('the incremental spill tracker', () => {
  const weir = { widthM: 1.5, coefficient: 0.62 };

  it('tells the spill opened at the reading that completes the on-delay, and closed at the one that completes the off-delay', () => {
    const tracker = new SpillTracker(9, spill, weir);
    const levels = [8.9, 9.0, 9.1, 9.2, 9.1, 8.5, 8.5, ...Array(12).fill(8.5)];
    const changes = every10s(levels).map((r) => tracker.add(r.tsMs, r.levelM));
    // 9.0 at 10 s starts it; 40 s is the first reading 30 s later.
    expect(changes.findIndex((c) => c !== null)).toBe(4);
    expect(changes[4]).toMatchObject({ kind: 'opened', spill: { startedAtMs: t0 + 10 * S, endedAtMs: null, peakLevelM: 9.2 } });
    expect(tracker.isOpen).toBe(false);
    // The end's first reading is 8.5 at 50 s; 120 s later (170 s, reading 17) it closes.
    expect(changes.findIndex((c, i) => i > 4 && c !== null)).toBe(17);
    expect(changes[17]).toMatchObject({ kind: 'closed', spill: { startedAtMs: t0 + 10 * S, endedAtMs: t0 + 50 * S, peakLevelM: 9.2 } });
    expect(tracker.current()).toBeNull();
  });

  it('gives, reading by reading, exactly the spills of the list rule (starts, ends, peaks, weir volumes)', () => {
    for (const seed of [1, 7, 42, 2026]) {
      const readings = wandering(3000, seed);
      for (const settings of [spill, { onDelayS: 0, offDelayS: 0, deadbandM: 0 }, { onDelayS: 300, offDelayS: 30, deadbandM: 0.05 }]) {
        for (const w of [weir, null]) {
          const expected = listSpills(readings, 9, settings, w);
          expect(expected.length).toBeGreaterThan(0);
          const tracker = new SpillTracker(9, settings, w);
          const seen: unknown[] = [];
          for (const r of readings) {
            const change = tracker.add(r.tsMs, r.levelM);
            if (change?.kind === 'closed') seen.push(change.spill);
            // Opened and closed alternate: a change is always the other one of the last.
            if (change) expect(change.kind).toBe(tracker.isOpen ? 'opened' : 'closed');
          }
          if (tracker.current()) seen.push(tracker.current());
          expect(seen).toEqual(expected);
          expect(detectSpills(readings, 9, settings, w)).toEqual(expected);
        }
      }
    }
  });

  it('a new geometry moves the crest for the readings after it', () => {
    const tracker = new SpillTracker(9, { ...spill, onDelayS: 0 }, null);
    expect(tracker.add(t0, 8.5)).toBeNull();
    tracker.configure(8.4, { ...spill, onDelayS: 0 }, null);
    expect(tracker.add(t0 + S, 8.5)).toMatchObject({ kind: 'opened', spill: { startedAtMs: t0 + S } });
  });
});
