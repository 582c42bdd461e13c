import { describe, expect, it } from 'vitest';
import { analyticsStep } from './analytics-step';
import { presetSpan } from './time-range';

describe('analyticsStep', () => {
  it('takes minutes for the last hour and day, hours for 7 and 30 days', () => {
    expect(analyticsStep(presetSpan('1h'))).toBe('1m');
    expect(analyticsStep(presetSpan('24h'))).toBe('1m');
    expect(analyticsStep(presetSpan('7d'))).toBe('1h');
    expect(analyticsStep(presetSpan('30d'))).toBe('1h');
  });

  it('keeps a custom range within 2,000 buckets', () => {
    expect(analyticsStep(2000 * 60_000)).toBe('1m');
    expect(analyticsStep(2000 * 60_000 + 1)).toBe('1h');
    expect(analyticsStep(2000 * 3_600_000)).toBe('1h');
    expect(analyticsStep(365 * 86_400_000)).toBe('1d');
  });
});
