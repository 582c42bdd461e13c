import { describe, expect, it } from 'vitest';
import { exportTimes } from './export-range';

const now = Date.parse('2026-11-22T08:00:00.000Z');

describe('exportTimes', () => {
  it('quick choices end now', () => {
    expect(exportTimes('24h', { from: '', to: '' }, now)).toEqual({ from: '2026-11-21T08:00:00.000Z', to: '2026-11-22T08:00:00.000Z' });
    expect(exportTimes('30d', { from: '', to: '' }, now)).toEqual({ from: '2026-10-23T08:00:00.000Z', to: '2026-11-22T08:00:00.000Z' });
  });

  it("'Todo el historial' sends no times", () => {
    expect(exportTimes('all', { from: '', to: '' }, now)).toEqual({});
  });

  it('custom ranges are read as local time and must be ordered', () => {
    const ok = exportTimes('custom', { from: '2026-11-20T10:00', to: '2026-11-20T12:00' }, now);
    expect(ok).toEqual({ from: new Date(2026, 10, 20, 10).toISOString(), to: new Date(2026, 10, 20, 12).toISOString() });
    expect(exportTimes('custom', { from: '2026-11-20T12:00', to: '2026-11-20T10:00' }, now)).toHaveProperty('error');
    expect(exportTimes('custom', { from: '', to: '2026-11-20T10:00' }, now)).toHaveProperty('error');
  });
});
