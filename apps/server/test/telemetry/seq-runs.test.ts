// The deduplication memory on its own: runs of consecutive seqs, the 24 h window, the hourly
// split, and the journal that undoes a failed transaction.
import { describe, expect, it } from 'vitest';
import { RUN_SPAN_MS, SeqRuns } from '../../src/storage/ingest/seq-runs';

const DAY = 24 * 3600 * 1000;
const T0 = 1_800_000_000_000;

function claimAll(runs: SeqRuns, seqs: number[], nowMs = T0, deviceId = 'd1', boot = 'b1'): boolean[] {
  return seqs.map((s) => runs.claim(deviceId, boot, s, nowMs));
}

describe('SeqRuns', () => {
  it('counting up makes one run; every repeat inside it is a duplicate', () => {
    const runs = new SeqRuns();
    expect(claimAll(runs, [0, 1, 2, 3, 4])).toEqual([true, true, true, true, true]);
    expect(runs.size()).toBe(1);
    expect(claimAll(runs, [0, 2, 4])).toEqual([false, false, false]);
    expect(claimAll(runs, [5])).toEqual([true]);
    expect(runs.size()).toBe(1);
  });

  it('gaps make separate runs, found again in any order', () => {
    const runs = new SeqRuns();
    expect(claimAll(runs, [10, 11, 20, 21, 5, 30])).toEqual([true, true, true, true, true, true]);
    expect(runs.size()).toBe(4);
    expect(claimAll(runs, [5, 10, 11, 20, 21, 30])).toEqual([false, false, false, false, false, false]);
    expect(claimAll(runs, [6, 12, 19, 22, 29, 31, 0])).toEqual([true, true, true, true, true, true, true]);
    expect(claimAll(runs, [6, 12, 19, 22, 29, 31, 0])).toEqual([false, false, false, false, false, false, false]);
  });

  it('a seq just below the next run is claimed once, not merged into a duplicate of it', () => {
    const runs = new SeqRuns();
    claimAll(runs, [0, 1, 2, 4, 5]);
    expect(claimAll(runs, [3, 3, 4])).toEqual([true, false, false]);
  });

  it('(device, boot) pairs are independent', () => {
    const runs = new SeqRuns();
    expect(runs.claim('d1', 'b1', 7, T0)).toBe(true);
    expect(runs.claim('d1', 'b2', 7, T0)).toBe(true);
    expect(runs.claim('d2', 'b1', 7, T0)).toBe(true);
    expect(runs.claim('d1', '', 7, T0)).toBe(true);
    expect(runs.claim('d1', 'b1', 7, T0)).toBe(false);
  });

  it('a seq is a duplicate for 24 h after it was received, and new again later', () => {
    const runs = new SeqRuns();
    runs.claim('d1', 'b1', 1, T0);
    expect(runs.claim('d1', 'b1', 1, T0 + DAY - 1)).toBe(false);
    expect(runs.claim('d1', 'b1', 1, T0 + DAY + 1)).toBe(true);
    expect(runs.claim('d1', 'b1', 1, T0 + DAY + 2)).toBe(false);
  });

  it('a run stops growing after an hour, so old seqs expire close to their own 24 h', () => {
    const runs = new SeqRuns();
    runs.claim('d1', 'b1', 0, T0);
    runs.claim('d1', 'b1', 1, T0 + RUN_SPAN_MS - 1); // still the first run
    runs.claim('d1', 'b1', 2, T0 + RUN_SPAN_MS + 1); // a new run
    expect(runs.size()).toBe(2);
    const later = T0 + RUN_SPAN_MS + DAY; // the first run's last receipt is more than 24 h back
    expect(runs.claim('d1', 'b1', 0, later)).toBe(true);
    expect(runs.claim('d1', 'b1', 2, later)).toBe(false);
  });

  it('rollback undoes created and grown runs; commit keeps them', () => {
    const runs = new SeqRuns();
    claimAll(runs, [0, 1]);
    runs.commit();
    claimAll(runs, [2, 3, 50]);
    expect(runs.takeDirty()).toHaveLength(2);
    runs.rollback();
    expect(runs.size()).toBe(1);
    expect(claimAll(runs, [1, 2, 3, 50])).toEqual([false, true, true, true]);
    runs.commit();
    expect(claimAll(runs, [2, 3, 50])).toEqual([false, false, false]);
  });

  it('takeDirty hands out each created or grown run once', () => {
    const runs = new SeqRuns();
    claimAll(runs, [0, 1, 2, 9]);
    const dirty = runs.takeDirty();
    expect(dirty.map((r) => [r.from, r.to])).toEqual([
      [0, 2],
      [9, 9],
    ]);
    expect(runs.takeDirty()).toEqual([]);
    claimAll(runs, [0, 3]);
    expect(runs.takeDirty().map((r) => [r.from, r.to])).toEqual([[0, 3]]);
  });

  it('scattered seqs (a broken or hostile device) cannot grow memory without end: the oldest runs are forgotten', () => {
    const runs = new SeqRuns(DAY, RUN_SPAN_MS, 10);
    for (let i = 0; i < 25; i++) expect(runs.claim('d1', `boot${i % 3}`, i * 10, T0 + i)).toBe(true);
    expect(runs.size()).toBeLessThanOrEqual(10);
    // The most recent ones are still remembered…
    expect(runs.claim('d1', 'boot0', 240, T0 + 100)).toBe(false);
    expect(runs.claim('d1', 'boot2', 230, T0 + 100)).toBe(false);
    // …the forgotten oldest are taken again (stored twice rather than ever refusing a new reading).
    expect(runs.claim('d1', 'boot0', 0, T0 + 100)).toBe(true);
    // Another device is not affected by this one's flood.
    expect(runs.claim('d2', 'b', 1, T0)).toBe(true);
    expect(runs.claim('d2', 'b', 1, T0 + 1)).toBe(false);
  });

  it('load restores stored runs in any order; prune and forgetDevice drop what no longer counts', () => {
    const runs = new SeqRuns();
    runs.load([
      { id: 2, deviceId: 'd1', boot: 'b1', from: 100, to: 199, firstMs: T0, lastMs: T0 },
      { id: 1, deviceId: 'd1', boot: 'b1', from: 0, to: 49, firstMs: T0 - DAY / 2, lastMs: T0 - DAY / 2 },
      { id: 3, deviceId: 'd2', boot: 'x', from: 5, to: 5, firstMs: T0, lastMs: T0 },
    ]);
    expect(claimAll(runs, [0, 49, 100, 199], T0 + 1)).toEqual([false, false, false, false]);
    expect(claimAll(runs, [50, 99], T0 + 1)).toEqual([true, true]);
    runs.commit();
    expect(runs.size()).toBe(5);
    runs.prune(T0 + DAY / 2 + 1); // the run received half a day before T0 is now past 24 h
    expect(runs.size()).toBe(4);
    runs.forgetDevice('d2');
    expect(runs.size()).toBe(3);
    expect(runs.claim('d2', 'x', 5, T0 + 2)).toBe(true);
  });
});
