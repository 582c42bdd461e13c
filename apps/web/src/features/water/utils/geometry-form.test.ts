import { describe, expect, it } from 'vitest';
import { DEFAULT_GEOMETRY } from '@agua/shared';
import { fieldOfProblem, geometryFormFrom, geometryInputFrom, parsePastedPoints, problemMessage, validateGeometryForm } from './geometry-form';

const demo = {
  ...DEFAULT_GEOMETRY,
  crestLevelM: 9,
  shape: { kind: 'rectangular' as const, areaM2: 24 },
  weir: { widthM: 1.5, coefficient: 0.62 },
};

describe('geometry form values', () => {
  it('maps a stored version to text and back to the same PUT body', () => {
    const form = geometryFormFrom(demo);
    expect(form.shapeKind).toBe('rectangular');
    expect(form.areaM2).toBe('24');
    const parsed = geometryInputFrom(form);
    expect(parsed).toEqual({
      input: {
        sensor: 'level',
        mountHeightM: null,
        zeroOffsetM: 0,
        crestLevelM: 9,
        shape: { kind: 'rectangular', areaM2: 24 },
        weir: { widthM: 1.5, coefficient: 0.62 },
        flowWindowS: 300,
        spill: { onDelayS: 30, offDelayS: 120, deadbandM: 0.02 },
      },
    });
  });

  it('reads comma decimals, drops the weir without a crest and names fields that are not numbers', () => {
    const form = { ...geometryFormFrom(demo), areaM2: '24,5', crestLevelM: '' };
    const parsed = geometryInputFrom(form);
    expect('input' in parsed && parsed.input.shape).toEqual({ kind: 'rectangular', areaM2: 24.5 });
    expect('input' in parsed && parsed.input.weir).toBeNull();
    expect(geometryInputFrom({ ...form, areaM2: 'abc', flowWindowS: '' })).toEqual({ errors: { areaM2: 'Escribe un número (p. ej. 9,5).', flowWindowS: 'Obligatorio.' } });
  });

  it('skips blank strapping rows and reports half-filled ones', () => {
    const form = { ...geometryFormFrom(demo), shapeKind: 'table' as const, points: [{ level: '0', volume: '0' }, { level: '2', volume: '50,5' }, { level: '', volume: '' }] };
    const parsed = geometryInputFrom(form);
    expect('input' in parsed && parsed.input.shape).toEqual({ kind: 'table', points: [{ levelM: 0, volumeM3: 0 }, { levelM: 2, volumeM3: 50.5 }] });
    expect(geometryInputFrom({ ...form, points: [{ level: '1', volume: '' }] })).toEqual({ errors: { points: 'Cada fila necesita un nivel y un volumen numéricos.' } });
  });
});

describe('geometry validation', () => {
  it('puts the domain problem in Spanish on the field it names', () => {
    const result = validateGeometryForm({ ...geometryFormFrom(demo), crestLevelM: '12' }, 10);
    expect(result).toEqual({ errors: { crestLevelM: 'Debe ser mayor que 0 m y no superar el nivel máximo (10 m).' } });
    expect(validateGeometryForm({ ...geometryFormFrom(demo), shapeKind: 'table', points: [{ level: '0', volume: '5' }, { level: '1', volume: '3' }] }, 10)).toEqual({
      errors: { points: 'Los volúmenes deben crecer de una fila a la siguiente.' },
    });
    expect(validateGeometryForm({ ...geometryFormFrom(demo), sensor: 'distance' }, 10)).toEqual({ errors: { mountHeightM: 'Un sensor de distancia necesita su altura de montaje (mayor que 0).' } });
    expect('geometry' in validateGeometryForm(geometryFormFrom(demo), 10)).toBe(true);
  });

  it('maps every dotted path of the server to a form field', () => {
    expect(fieldOfProblem('shape.areaM2')).toBe('areaM2');
    expect(fieldOfProblem('weir')).toBe('weirWidthM');
    expect(fieldOfProblem('spill.deadbandM')).toBe('deadbandM');
    expect(fieldOfProblem('crestLevelM')).toBe('crestLevelM');
    expect(problemMessage({ field: 'spill.deadbandM', reason: 'not_below_crest' }, 10)).toBe('La banda muerta debe ser menor que el nivel de vertedero.');
  });
});

describe('pasted strapping rows', () => {
  it('reads level;volume, tabs and a comma between dot decimals, skipping headers', () => {
    expect(parsePastedPoints('nivel;volumen\n0;0\n1,5;40,2\r\n3\t90\n4.5,120.5\n')).toEqual([
      { level: '0', volume: '0' },
      { level: '1,5', volume: '40,2' },
      { level: '3', volume: '90' },
      { level: '4.5', volume: '120.5' },
    ]);
  });
});
