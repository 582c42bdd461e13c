import { describe, expect, it } from 'vitest';
import { parseCoordinate, readSiteForm } from './site-form';

describe('the site form', () => {
  it('reads coordinates with a comma, a point or a true minus', () => {
    expect(parseCoordinate('40,4168')).toBe(40.4168);
    expect(parseCoordinate('\u22123.7')).toBe(-3.7);
    expect(parseCoordinate('')).toBeNull();
    expect(parseCoordinate('abc')).toBeUndefined();
  });

  it('asks for both coordinates or neither, in range', () => {
    expect(readSiteForm({ name: 'A', lat: '40', lon: '', address: '' }).errors.lon).toMatch(/ninguna/);
    expect(readSiteForm({ name: 'A', lat: '91', lon: '0', address: '' }).errors.lat).toMatch(/−90 y 90/);
    expect(readSiteForm({ name: ' ', lat: '', lon: '', address: '' }).errors.name).toBeDefined();
    expect(readSiteForm({ name: ' Planta ', lat: '40,1', lon: '-3', address: ' ' })).toEqual({ errors: {}, body: { name: 'Planta', lat: 40.1, lon: -3, address: null } });
  });
});
