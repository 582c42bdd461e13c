import { describe, expect, it } from 'vitest';
import { SheetNamer, validSheetName } from '../../src/features/history/sheet-names';

describe('sheet names (docs/api.md: valid, cut to 30, unique regardless of case)', () => {
  it.each([
    ['Sensor Nivel Agua Residual', 'Sensor Nivel Agua Residual'],
    ['a[b]c:d*e?f/g\\h', 'a-b-c-d-e-f-g-h'],
    ['Depósito principal de agua residual norte', 'Depósito principal de agua res'],
    ["'Tanque'", "-Tanque-"],
    ['Tanque de reserva número 1234\'X', "Tanque de reserva número 1234-"], // an apostrophe left at the end by the cut
    ['Tanque\tnorte', 'Tanque-norte'],
    [`Nivel: ${'🌊'.repeat(16)}`, `Nivel- ${'🌊'.repeat(11)}`], // 30 UTF-16 units would split a pair: 29
  ])('%s → %s', (name, sheet) => {
    expect(validSheetName(name)).toBe(sheet);
    expect(validSheetName(name).length).toBeLessThanOrEqual(30);
  });

  it('makes names unique regardless of case, within 30 characters', () => {
    const namer = new SheetNamer();
    const long = 'Sensor de nivel del depósito principal';
    expect(namer.next(long)).toBe('Sensor de nivel del depósito p');
    expect(namer.next(long.toUpperCase())).toBe('SENSOR DE NIVEL DEL DEPÓSI (2)');
    expect(namer.next(long)).toBe('Sensor de nivel del depósi (3)');
    expect(namer.next('Compuerta')).toBe('Compuerta');
    expect(namer.next('compuerta')).toBe('compuerta (2)');
    for (let n = 3; n <= 10; n++) namer.next('Compuerta');
    expect(namer.next('Compuerta')).toBe('Compuerta (11)');
    // A name taken as a suffixed name is skipped too.
    expect(namer.next('Compuerta (2)')).toBe('Compuerta (2) (2)');
  });

  it('keeps clear of the name Excel reserves', () => {
    expect(new SheetNamer().next('History')).toBe('History (2)');
  });
});
