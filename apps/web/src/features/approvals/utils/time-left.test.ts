import { describe, expect, it } from 'vitest';
import { formatTimeLeft } from './time-left';

describe('formatTimeLeft', () => {
  it('writes minutes and seconds, rounding up, never below zero', () => {
    expect(formatTimeLeft(600_000, 0)).toBe('10:00');
    expect(formatTimeLeft(545_001, 0)).toBe('9:06');
    expect(formatTimeLeft(5_000, 0)).toBe('0:05');
    expect(formatTimeLeft(0, 5_000)).toBe('0:00');
  });
});
