import { describe, expect, it } from 'vitest';
import { formatBytes, formatClockIn } from './format';

describe('formatBytes', () => {
  it.each([
    [0, '0 MB'],
    [312 * 2 ** 20 + 5, '312 MB'],
    [1023 * 2 ** 20, '1023 MB'],
    [1024 * 2 ** 20, '1 GB'],
    [79.46 * 2 ** 30, '79,4 GB'],
  ])('%d bytes → %s', (bytes, text) => {
    expect(formatBytes(bytes).replace(/\s/g, ' ')).toBe(text);
  });
});

describe('formatClockIn', () => {
  const now = Date.parse('2026-11-24T09:00:00.000Z');

  it("writes HH:MM in the installation's time zone, not the browser's", () => {
    expect(formatClockIn('2026-11-24T13:30:00.000Z', 'Europe/Madrid', now)).toBe('14:30');
    expect(formatClockIn('2026-11-24T13:30:00.000Z', 'America/Mexico_City', now)).toBe('07:30');
  });

  it('adds the day when it is not today there', () => {
    expect(formatClockIn('2026-11-24T23:30:00.000Z', 'Europe/Madrid', now)).toBe('00:30 del 25/11');
  });

  it('falls back to the browser zone for an unknown zone', () => {
    expect(formatClockIn('2026-11-24T13:30:00.000Z', 'Nowhere/Atlantis', now)).toMatch(/^\d{2}:\d{2}/);
  });
});
