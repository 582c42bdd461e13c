// docs/water.md "Daily totals": the figures of one local day, on days of 23 and 25 hours too.
import { describe, expect, it } from 'vitest';
import { dailyTotals, type DayInput } from './daily';

const MIN = 60_000;
const HOUR = 60 * MIN;
// Europe/Madrid: 2026-03-29 runs from 00:00 CET to 00:00 CEST (23 h), 2026-10-25 from 00:00 CEST to 00:00 CET (25 h).
const SPRING = { date: '2026-03-29', fromMs: Date.UTC(2026, 2, 28, 23), toMs: Date.UTC(2026, 2, 29, 22) };
const AUTUMN = { date: '2026-10-25', fromMs: Date.UTC(2026, 9, 24, 22), toMs: Date.UTC(2026, 9, 25, 23) };

/** A 24 m² wet well with its crest at 9 m and a full scale of 10 m. */
function day(bounds: typeof SPRING, levels: Array<[number, number]>, extra: Partial<DayInput> = {}): DayInput {
  return {
    ...bounds,
    points: levels.map(([ms, levelM]) => ({ tsMs: bounds.fromMs + ms, levelM, volumeM3: 24 * levelM })),
    crestLevelM: 9,
    fullVolumeM3: 240,
    readingIntervalS: 3,
    overflowEvents: 0,
    nowMs: bounds.toMs + HOUR,
    ...extra,
  };
}

const everyMinute = (hours: number, level: (i: number) => number): Array<[number, number]> => Array.from({ length: hours * 60 }, (_, i) => [i * MIN, level(i)]);

describe('daily totals across a change of the clocks', () => {
  it('a 23-hour day has 1,380 one-minute slots', () => {
    expect(SPRING.toMs - SPRING.fromMs).toBe(23 * HOUR);
    const full = dailyTotals(day(SPRING, everyMinute(23, () => 4)));
    expect(full.completenessPct).toBe(100);
    const oneMissing = dailyTotals(day(SPRING, everyMinute(23, () => 4).slice(1)));
    expect(oneMissing.completenessPct).toBeCloseTo((100 * 1379) / 1380, 9);
  });

  it('a 25-hour day has 1,500 one-minute slots, or 300 of five minutes', () => {
    expect(AUTUMN.toMs - AUTUMN.fromMs).toBe(25 * HOUR);
    expect(dailyTotals(day(AUTUMN, everyMinute(24, () => 4))).completenessPct).toBeCloseTo((100 * 1440) / 1500, 9);
    const every5min = Array.from({ length: 300 }, (_, i): [number, number] => [i * 5 * MIN, 4]);
    expect(dailyTotals(day(AUTUMN, every5min, { readingIntervalS: 300 })).completenessPct).toBe(100);
    // Slots are never shorter than a minute: a 3 s sensor read once a minute is complete.
    expect(dailyTotals(day(AUTUMN, everyMinute(25, () => 4))).completenessPct).toBe(100);
  });

  it('today counts the slots begun so far', () => {
    const t = dailyTotals(day(AUTUMN, everyMinute(2, () => 4), { nowMs: AUTUMN.fromMs + 2 * HOUR + 30_000 }));
    expect(t.completenessPct).toBeCloseTo((100 * 120) / 121, 9);
  });
});

describe('daily totals', () => {
  it('water in − water out is the end volume − the start volume', () => {
    // A pump cycle every 2 hours: filling 3 → 6 m over 100 minutes, emptied back in 20, with ripples.
    const levels = everyMinute(25, (i) => (i % 120 < 100 ? 3 + (3 * (i % 120)) / 100 : 6 - (3 * ((i % 120) - 100)) / 20) + (i % 7 === 0 ? 0.003 : 0));
    const t = dailyTotals(day(AUTUMN, levels));
    expect(t.inflowM3! - t.outflowM3!).toBeCloseTo(t.volumeEndM3! - t.volumeStartM3!, 9);
    expect(t.inflowM3).toBeGreaterThan(12 * 72 * 0.99);
    expect(t.outflowM3).toBeGreaterThan(12 * 72 * 0.9);
    expect(t).toMatchObject({ minLevelM: 3, secondsAboveCrest: 0, completenessPct: 100 });
    expect(t.maxLevelM).toBeCloseTo(6.003, 9);
  });

  it('time above the crest: each reading at or above counts until the next, inside the day', () => {
    // 23:50 the day before at 9.2 m (its series' start): 15 minutes at most, 5 of them inside the day; 10:00–10:30 above.
    const t = dailyTotals(day(SPRING, [[-10 * MIN, 9.2], [10 * MIN, 8], [10 * HOUR, 9], [10 * HOUR + 10 * MIN, 9.4], [10 * HOUR + 20 * MIN, 9.1], [10 * HOUR + 30 * MIN, 8.5]], { overflowEvents: 1 }));
    expect(t.secondsAboveCrest).toBe(5 * 60 + 30 * 60);
    expect(t).toMatchObject({ volumeStartM3: 24 * 9.2, volumeEndM3: 24 * 8.5, minLevelM: 8, maxLevelM: 9.4, overflowEvents: 1 });
  });

  it('a day without readings has null figures, no events and completeness 0, even with a reading just before it', () => {
    const t = dailyTotals(day(SPRING, [[-5 * MIN, 9.5]], { overflowEvents: 3 }));
    expect(t).toEqual({
      date: '2026-03-29',
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
  });

  it('without a crest no time above it', () => {
    expect(dailyTotals(day(SPRING, [[0, 9.5]], { crestLevelM: null })).secondsAboveCrest).toBeNull();
  });
});
