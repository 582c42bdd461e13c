import { describe, expect, it } from 'vitest';
import { calendarYear, methodText, notifiedText, totalVolumeText, volumeText } from './overflow-texts';

// The tests run outside a Spanish browser: the formatters fall back to plain 'es'.
describe('overflow texts', () => {
  it("prints a volume in Spanish and an unknown one as '—', never 0 m³", () => {
    expect(volumeText(1005.27)).toBe('1.005,3 m³');
    expect(volumeText(0)).toBe('0,0 m³');
    expect(volumeText(null)).toBe('—');
    expect(totalVolumeText({ totalVolumeM3: null })).toBe('—');
    expect(totalVolumeText({ totalVolumeM3: 12.34 })).toBe('12,3 m³');
  });

  it('names the method', () => {
    expect(methodText('weir')).toBe('por vertedero');
    expect(methodText(null)).toBe('sin vertedero');
  });

  it("says 'Sí — fecha' once the authority was told, else 'No'", () => {
    expect(notifiedText(null)).toBe('No');
    expect(notifiedText('2026-11-22T10:00:00.000Z')).toMatch(/^Sí — .*2026/);
  });

  it('spans the local calendar year, the next 1 January excluded', () => {
    expect(calendarYear(new Date(2026, 5, 15))).toEqual({ year: 2026, from: new Date(2026, 0, 1).toISOString(), to: new Date(2027, 0, 1).toISOString() });
    expect(calendarYear(new Date(2026, 11, 31, 23, 59)).year).toBe(2026);
  });
});
