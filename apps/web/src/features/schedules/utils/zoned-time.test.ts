import { describe, expect, it } from 'vitest';
import { addDays, atThe, formatZonedClock, formatZonedWhen, zonedParts } from './zoned-time';

describe("times in the installation's zone, not the browser's", () => {
  it('reads a UTC instant in the zone given', () => {
    expect(zonedParts('2026-11-30T05:00:00.000Z', 'Europe/Madrid')).toMatchObject({ day: '2026-11-30', clock: '06:00', isoWeekday: 1 });
    expect(zonedParts('2026-11-30T05:00:00.000Z', 'America/Mexico_City')).toMatchObject({ day: '2026-11-29', clock: '23:00', isoWeekday: 7 });
    expect(zonedParts('2026-11-30T00:30:00.000Z', 'UTC')).toMatchObject({ clock: '00:30', hour: 0 });
  });

  it("says 'hoy', 'mañana', 'ayer' by the zone's calendar, else the weekday and date", () => {
    const now = Date.parse('2026-11-29T22:30:00.000Z'); // 23:30 on Sunday 29 in Madrid
    expect(formatZonedWhen('2026-11-29T22:45:00.000Z', 'Europe/Madrid', now)).toBe('hoy 23:45');
    expect(formatZonedWhen('2026-11-30T05:00:00.000Z', 'Europe/Madrid', now)).toBe('mañana 06:00');
    expect(formatZonedWhen('2026-11-28T21:15:00.000Z', 'Europe/Madrid', now)).toBe('ayer 22:15');
    expect(formatZonedWhen('2026-12-02T05:00:00.000Z', 'Europe/Madrid', now)).toBe('mié 02/12 06:00');
    // The same instant is already Monday in Madrid but still Sunday in UTC.
    expect(formatZonedWhen('2026-11-29T23:30:00.000Z', 'Europe/Madrid', now)).toBe('mañana 00:30');
    expect(formatZonedWhen('2026-11-29T23:30:00.000Z', 'UTC', now)).toBe('hoy 23:30');
  });

  it('adds the year only when it is not this one', () => {
    const now = Date.parse('2027-01-02T10:00:00.000Z');
    expect(formatZonedWhen('2026-12-28T06:00:00.000Z', 'UTC', now)).toBe('lun 28/12/2026 06:00');
  });

  it('gives a clock with its day only when that is not today', () => {
    const now = Date.parse('2026-11-24T10:00:00.000Z');
    expect(formatZonedClock('2026-11-24T14:30:00.000Z', 'UTC', now)).toBe('14:30');
    expect(formatZonedClock('2026-11-25T02:15:00.000Z', 'UTC', now)).toBe('02:15 del 25/11');
  });

  it('does calendar arithmetic across months, years and a daylight-saving change', () => {
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-03-29', 1)).toBe('2026-03-30');
  });

  it("says 'a la' before one o'clock", () => {
    expect(atThe('01:30')).toBe('a la 01:30');
    expect(atThe('06:00')).toBe('a las 06:00');
    expect(atThe('00:05')).toBe('a las 00:05');
  });

  it('falls back to the browser zone for a zone it does not know, and to a dash for a bad time', () => {
    expect(zonedParts('2026-11-30T05:00:00.000Z', 'Nowhere/Nada')).not.toBeNull();
    expect(formatZonedWhen('not a time', 'UTC')).toBe('—');
  });
});
