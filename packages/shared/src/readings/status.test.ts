import { describe, expect, it } from 'vitest';
import { gateStatus, isNewerReading, levelStatus, levelThresholdsOf, statusColor, READING_STATUS_LABELS } from './status';

describe('level status (60 % / 85 % of maxLevel, strictly above)', () => {
  it.each([
    [0, 'normal'],
    [6, 'normal'],
    [6.0001, 'warning'],
    [8.5, 'warning'],
    [8.5001, 'critical'],
    [10, 'critical'],
    [12, 'critical'],
    [12.01, 'fault'],
    [-0.5, 'normal'],
    [-0.51, 'fault'],
    [Number.NaN, 'fault'],
    [Number.POSITIVE_INFINITY, 'fault'],
  ])('maxLevel 10, value %s → %s', (value, expected) => {
    expect(levelStatus(value, { maxLevel: 10 })).toBe(expected);
  });

  it('uses per-device thresholds when given', () => {
    expect(levelStatus(3.6, { maxLevel: 5, warningPct: 70, criticalPct: 90 })).toBe('warning');
    expect(levelStatus(3.4, { maxLevel: 5, warningPct: 70, criticalPct: 90 })).toBe('normal');
    expect(levelStatus(4.51, { maxLevel: 5, warningPct: 70, criticalPct: 90 })).toBe('critical');
  });

  it('classifies the 5 m clean-water tank', () => {
    expect(levelStatus(3, { maxLevel: 5 })).toBe('normal');
    expect(levelStatus(3.01, { maxLevel: 5 })).toBe('warning');
    expect(levelStatus(4.26, { maxLevel: 5 })).toBe('critical');
  });
});

describe('gate status and colours', () => {
  it('a failed gate is a fault, every other state normal', () => {
    expect(gateStatus('falla')).toBe('fault');
    for (const s of ['abierta', 'cerrada', 'abriendo', 'cerrando'] as const) expect(gateStatus(s)).toBe('normal');
  });

  it('maps the seed colours, gray for anything else', () => {
    expect(statusColor('normal')).toBe('green');
    expect(statusColor('warning')).toBe('yellow');
    expect(statusColor('critical')).toBe('red');
    expect(statusColor('fault')).toBe('gray');
    expect(statusColor(null)).toBe('gray');
  });

  it('names statuses in Spanish as the export does', () => {
    expect(READING_STATUS_LABELS).toEqual({ normal: 'Normal', warning: 'Advertencia', critical: 'Crítico', fault: 'Falla' });
  });
});

describe('the current reading only moves forward', () => {
  it.each([
    [null, 5, true],
    [undefined, 5, true],
    [5, 6, true],
    [5, 5, true], // a tie: the later arrival wins
    [5, 4, false], // a late batch fills the history only
  ] as const)('current %s, candidate %d → %s', (current, candidate, newer) => {
    expect(isNewerReading(current, candidate)).toBe(newer);
  });
});

describe('level thresholds with defaults', () => {
  it.each([
    [{}, { maxLevel: 10, warningPct: 60, criticalPct: 85 }],
    [{ maxLevel: 5 }, { maxLevel: 5, warningPct: 60, criticalPct: 85 }],
    [{ maxLevel: 5, warningPct: 50, criticalPct: null }, { maxLevel: 5, warningPct: 50, criticalPct: 85 }],
    [{ maxLevel: 2, warningPct: 70, criticalPct: 90 }, { maxLevel: 2, warningPct: 70, criticalPct: 90 }],
  ])('%o → %o', (settings, expected) => {
    expect(levelThresholdsOf(settings)).toEqual(expected);
  });
});
