import { describe, expect, it } from 'vitest';
import { defaultPeriod, devicesText, fileSizeText, recipientsText, scheduleText, shortHash } from './report-texts';

describe('schedule in words', () => {
  it('says each kind in Spanish', () => {
    expect(scheduleText('daily', { time: '07:00' })).toBe('Cada día a las 07:00');
    expect(scheduleText('weekly', { time: '07:00', weekday: 1 })).toBe('Cada lunes a las 07:00');
    expect(scheduleText('weekly', { time: '18:30', weekday: 7 })).toBe('Cada domingo a las 18:30');
    expect(scheduleText('monthly', { time: '07:00', dayOfMonth: 1 })).toBe('El día 1 de cada mes a las 07:00');
    expect(scheduleText('overflows', { time: '06:15', dayOfMonth: 28 })).toBe('El día 28 de cada mes a las 06:15');
  });

  it("says 'Solo bajo demanda' without a schedule", () => {
    expect(scheduleText('daily', null)).toBe('Solo bajo demanda');
    expect(scheduleText('monthly', undefined)).toBe('Solo bajo demanda');
  });

  it("uses the singular for one o'clock and never invents a missing day", () => {
    expect(scheduleText('daily', { time: '01:30' })).toBe('Cada día a la 01:30');
    expect(scheduleText('daily', { time: '00:05' })).toBe('Cada día a las 00:05');
    expect(scheduleText('weekly', { time: '07:00' })).toBe('Cada semana a las 07:00');
    expect(scheduleText('monthly', { time: '07:00' })).toBe('Cada mes a las 07:00');
  });
});

describe('default period: the last complete one, in local time', () => {
  it('daily: yesterday, across a month and a year', () => {
    expect(defaultPeriod('daily', new Date(2026, 10, 28, 9, 0))).toEqual({ from: '2026-11-27', to: '2026-11-27' });
    expect(defaultPeriod('daily', new Date(2027, 0, 1, 0, 5))).toEqual({ from: '2026-12-31', to: '2026-12-31' });
  });

  it('weekly: last Monday to Sunday, whatever the day today', () => {
    // Monday 30 November 2026, Wednesday 2 December, Sunday 6 December.
    expect(defaultPeriod('weekly', new Date(2026, 10, 30, 8))).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(defaultPeriod('weekly', new Date(2026, 11, 2, 8))).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(defaultPeriod('weekly', new Date(2026, 11, 6, 23, 59))).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(defaultPeriod('weekly', new Date(2026, 11, 7, 0, 1))).toEqual({ from: '2026-11-30', to: '2026-12-06' });
  });

  it('monthly and overflows: the previous calendar month', () => {
    expect(defaultPeriod('monthly', new Date(2026, 10, 15))).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(defaultPeriod('overflows', new Date(2026, 0, 1))).toEqual({ from: '2025-12-01', to: '2025-12-31' });
    expect(defaultPeriod('monthly', new Date(2024, 2, 31))).toEqual({ from: '2024-02-01', to: '2024-02-29' });
  });
});

describe('file texts', () => {
  it('prints a size in B, KB or MB', () => {
    expect(fileSizeText(850)).toBe('850 B');
    expect(fileSizeText(12_700)).toBe('12,4 KB');
    expect(fileSizeText(3.2 * 1024 * 1024)).toBe('3,2 MB');
  });

  it('shortens a SHA-256', () => {
    expect(shortHash('a'.repeat(64))).toBe(`${'a'.repeat(12)}…`);
  });
});

describe('definition texts', () => {
  it("says 'Todos' for every device, else the names", () => {
    const name = (id: string) => ({ a: 'Pozo Norte', b: 'Depósito Sur' })[id] ?? id;
    expect(devicesText(null, name)).toBe('Todos');
    expect(devicesText(['a', 'b', 'zz'], name)).toBe('Pozo Norte, Depósito Sur, zz');
  });

  it('counts the recipients', () => {
    expect(recipientsText([])).toBe('Ninguno');
    expect(recipientsText(['u1'])).toBe('1 destinatario');
    expect(recipientsText(['u1', 'a@b.es'])).toBe('2 destinatarios');
  });
});
