import { describe, expect, it } from 'vitest';
import { fromLocalInputValue, rangeKey, resolveRange, toLocalInputValue } from './time-range';

describe('time ranges', () => {
  it('presets end now and are live; custom ranges are live only while they reach now', () => {
    const now = 10 * 86_400_000;
    expect(resolveRange({ kind: 'preset', preset: '24h' }, now)).toEqual({ fromMs: now - 86_400_000, toMs: now, live: true });
    expect(resolveRange({ kind: 'custom', fromMs: 1, toMs: now - 1 }, now).live).toBe(false);
    expect(resolveRange({ kind: 'custom', fromMs: 1, toMs: now + 1 }, now).live).toBe(true);
  });

  it('keys presets by name (their times move) and custom ranges by their times', () => {
    expect(rangeKey({ kind: 'preset', preset: '7d' })).toBe('7d');
    expect(rangeKey({ kind: 'custom', fromMs: 5, toMs: 9 })).toBe('5-9');
  });

  it('round-trips datetime-local values in local time, to the minute', () => {
    const ms = new Date(2026, 10, 22, 9, 5, 30).getTime();
    expect(toLocalInputValue(ms)).toBe('2026-11-22T09:05');
    expect(fromLocalInputValue('2026-11-22T09:05')).toBe(new Date(2026, 10, 22, 9, 5).getTime());
    expect(fromLocalInputValue('')).toBeNaN();
  });
});
