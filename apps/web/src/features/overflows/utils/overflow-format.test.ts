import { describe, expect, it } from 'vitest';
import { formatDuration, formatOverflowVolume, formatTotalVolume, yearRange } from './overflow-format';

describe('overflow figures as the screen prints them', () => {
  it('durations', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(12 * 60 + 5)).toBe('12 min');
    expect(formatDuration(2 * 3600)).toBe('2 h');
    expect(formatDuration(2 * 3600 + 10 * 60)).toBe('2 h 10 min');
    expect(formatDuration(27 * 3600)).toBe('1 d 3 h');
    expect(formatDuration(48 * 3600)).toBe('2 d');
  });

  it('a volume only where there is one, with its method', () => {
    expect(formatOverflowVolume({ volumeM3: null, method: null })).toBe('—');
    expect(formatOverflowVolume({ volumeM3: 12.34, method: 'weir' })).toMatch(/^12[,.]3 m³ \(vertedero\)$/);
    expect(formatTotalVolume(null)).toBe('—');
  });

  it('the local calendar year', () => {
    const { from, to } = yearRange(new Date(2026, 5, 15));
    expect(new Date(from).getFullYear()).toBe(2026);
    expect(new Date(from).getMonth()).toBe(0);
    expect(new Date(to).getFullYear()).toBe(2027);
  });
});
