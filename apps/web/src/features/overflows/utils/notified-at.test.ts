import { describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from '@agua/shared';
import { parseNotifiedAt, toLocalInput } from './notified-at';

describe("'Comunicado a la autoridad'", () => {
  const now = new Date(2026, 10, 24, 10, 30, 15).getTime();

  it('reads a local date and time as the instant it names', () => {
    expect(parseNotifiedAt('2026-11-24T09:05', now)).toEqual({ notifiedAt: new Date(2026, 10, 24, 9, 5).toISOString() });
    expect(parseNotifiedAt('2026-11-24T10:30', now)).toEqual({ notifiedAt: new Date(2026, 10, 24, 10, 30).toISOString() });
  });

  it('clears with an empty field', () => {
    expect(parseNotifiedAt('  ', now)).toEqual({ notifiedAt: null });
  });

  it('refuses a future time with the server’s own words, and what is not a date', () => {
    expect(parseNotifiedAt('2026-11-24T10:31', now)).toEqual({ error: ERROR_MESSAGES.NOTIFIED_AT_IN_FUTURE });
    expect(parseNotifiedAt('2026-02-30T10:00', now)).toEqual({ error: 'Indique una fecha y hora válidas.' });
    expect(parseNotifiedAt('ayer', now)).toEqual({ error: 'Indique una fecha y hora válidas.' });
  });

  it('writes an instant back in the field’s local form', () => {
    expect(toLocalInput(new Date(2026, 0, 5, 7, 3).toISOString())).toBe('2026-01-05T07:03');
    expect(toLocalInput(null)).toBe('');
    expect(parseNotifiedAt(toLocalInput(new Date(2026, 10, 1, 23, 59)), now)).toEqual({ notifiedAt: new Date(2026, 10, 1, 23, 59).toISOString() });
  });
});
