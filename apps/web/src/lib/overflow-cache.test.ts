import { describe, expect, it } from 'vitest';
import type { OverflowEvent } from '@agua/shared';
import { applyOverflowUpdate, matchesOverflowFilters, type OverflowPages } from './overflow-cache';

const event = (id: string, startedAt: string, over: Partial<OverflowEvent> = {}): OverflowEvent => ({
  id,
  deviceId: 'pozo',
  startedAt,
  endedAt: null,
  durationS: 60,
  peakLevelM: 4.2,
  volumeM3: null,
  method: null,
  cause: null,
  notifiedAt: null,
  notes: null,
  ...over,
});
const pages = (...lists: Array<[OverflowEvent[], string | null]>): OverflowPages => ({
  pages: lists.map(([items, nextCursor]) => ({ items, nextCursor })),
  pageParams: lists.map((_, i) => (i === 0 ? null : `c${i}`)),
});
const ids = (data: OverflowPages) => data.pages.map((p) => p.items.map((e) => e.id));

describe('overflow lists from overflow.updated', () => {
  const a = event('a', '2026-11-20T10:00:00.000Z', { endedAt: '2026-11-20T11:00:00.000Z' });
  const b = event('b', '2026-11-22T10:00:00.000Z', { endedAt: '2026-11-22T10:30:00.000Z' });

  it('puts a new event first, newest start first', () => {
    const c = event('c', '2026-11-24T08:00:00.000Z');
    expect(ids(applyOverflowUpdate(pages([[b, a], null]), {}, c))).toEqual([['c', 'b', 'a']]);
  });

  it('replaces a known event where it is (an open one closes)', () => {
    const open = event('b', b.startedAt);
    const closed = { ...open, endedAt: '2026-11-22T10:45:00.000Z', durationS: 2700 };
    const next = applyOverflowUpdate(pages([[open, a], null]), {}, closed);
    expect(ids(next)).toEqual([['b', 'a']]);
    expect(next.pages[0]!.items[0]).toBe(closed);
  });

  it('leaves out an event of another device or outside the period', () => {
    const data = pages([[b, a], null]);
    expect(applyOverflowUpdate(data, { deviceId: 'otro' }, event('c', '2026-11-24T08:00:00.000Z'))).toEqual(data);
    expect(applyOverflowUpdate(data, { to: '2026-11-23T00:00:00.000Z' }, event('c', '2026-11-24T08:00:00.000Z'))).toEqual(data);
    expect(applyOverflowUpdate(data, { from: '2026-11-25T00:00:00.000Z' }, event('c', '2026-11-24T08:00:00.000Z'))).toEqual(data);
  });

  it('keeps an event older than everything loaded for the next page when more pages wait', () => {
    const old = event('z', '2026-11-01T10:00:00.000Z', { endedAt: '2026-11-01T11:00:00.000Z' });
    expect(ids(applyOverflowUpdate(pages([[b], 'c1']), {}, old))).toEqual([['b']]);
    expect(ids(applyOverflowUpdate(pages([[b], null]), {}, old))).toEqual([['b', 'z']]);
    expect(ids(applyOverflowUpdate(pages([[], null]), {}, old))).toEqual([['z']]);
  });

  it('drops the events a late batch merged into the one sent', () => {
    const merged = event('a', a.startedAt, { endedAt: '2026-11-22T10:30:00.000Z' });
    const otherDevice = event('x', '2026-11-21T10:00:00.000Z', { deviceId: 'otro' });
    expect(ids(applyOverflowUpdate(pages([[b, otherDevice, a], null]), {}, merged))).toEqual([['x', 'a']]);
  });

  it('matches on the start: from inclusive, to exclusive', () => {
    const e = event('e', '2026-11-24T00:00:00.000Z');
    expect(matchesOverflowFilters(e, { from: '2026-11-24T00:00:00.000Z' })).toBe(true);
    expect(matchesOverflowFilters(e, { to: '2026-11-24T00:00:00.000Z' })).toBe(false);
    expect(matchesOverflowFilters(e, { deviceId: 'pozo' })).toBe(true);
  });
});
