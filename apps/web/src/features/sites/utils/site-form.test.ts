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
    expect(readSiteForm({ parentId: '', name: 'A', lat: '40', lon: '', address: '' }).errors.lon).toMatch(/ninguna/);
    expect(readSiteForm({ parentId: '', name: 'A', lat: '91', lon: '0', address: '' }).errors.lat).toMatch(/−90 y 90/);
    expect(readSiteForm({ parentId: '', name: ' ', lat: '', lon: '', address: '' }).errors.name).toBeDefined();
    expect(readSiteForm({ parentId: '', name: ' Planta ', lat: '40,1', lon: '-3', address: ' ' })).toEqual({ errors: {}, body: { name: 'Planta', parentId: null, lat: 40.1, lon: -3, address: null } });
  });

  it("sends 'Sitio superior' as the site's id, or null for none", () => {
    expect(readSiteForm({ parentId: 'site_cuenca', name: 'Estación', lat: '', lon: '', address: '' }).body.parentId).toBe('site_cuenca');
    expect(readSiteForm({ parentId: '', name: 'Estación', lat: '', lon: '', address: '' }).body.parentId).toBeNull();
  });
});
