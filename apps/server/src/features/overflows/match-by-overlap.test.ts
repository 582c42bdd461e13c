import { describe, expect, it } from 'vitest';
import type { DetectedSpill } from '@agua/shared';
import type { OverflowEventRecord } from './overflow-events.repository';
import { matchByOverlap } from './overflow-recorder';

const spill = (startedAtMs: number, endedAtMs: number | null): DetectedSpill => ({ startedAtMs, endedAtMs, peakLevelM: 4, volumeM3: null });
const stored = (id: string, startedAtMs: number, endedAtMs: number | null): OverflowEventRecord => ({
  id,
  deviceId: 'd',
  startedAtMs,
  endedAtMs,
  lastReadingMs: endedAtMs ?? startedAtMs,
  peakLevelM: 4,
  volumeM3: null,
  method: null,
  cause: null,
  notifiedAtMs: null,
  notes: null,
  updatedAtMs: 0,
});

describe('matchByOverlap (a replay merged into the stored events)', () => {
  it('keeps an event whose time the replay still covers, even when its edges moved', () => {
    const { pairs, unmatched } = matchByOverlap([spill(90, 210)], [stored('a', 100, 200)]);
    expect(pairs.map(([s, e]) => [s.startedAtMs, e?.id])).toEqual([[90, 'a']]);
    expect(unmatched).toEqual([]);
  });

  it('two events a late batch joined: the earlier keeps its id, the later is gone', () => {
    const { pairs, unmatched } = matchByOverlap([spill(100, 400)], [stored('a', 100, 200), stored('b', 300, 400)]);
    expect(pairs.map(([, e]) => e?.id)).toEqual(['a']);
    expect(unmatched.map((e) => e.id)).toEqual(['b']);
  });

  it('an event a late batch split: the first part keeps the id, the second is new', () => {
    const { pairs, unmatched } = matchByOverlap([spill(100, 200), spill(300, 400)], [stored('a', 100, 400)]);
    expect(pairs.map(([, e]) => e?.id ?? null)).toEqual(['a', null]);
    expect(unmatched).toEqual([]);
  });

  it('an open spill overlaps an open or later-ending event; disjoint ones do not pair', () => {
    const { pairs, unmatched } = matchByOverlap([spill(500, null)], [stored('old', 100, 200), stored('open', 450, null)]);
    expect(pairs.map(([, e]) => e?.id)).toEqual(['open']);
    expect(unmatched.map((e) => e.id)).toEqual(['old']);
  });
});
