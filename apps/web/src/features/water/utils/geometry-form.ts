import {
  DEFAULT_FLOW_WINDOW_S,
  DEFAULT_SPILL,
  DEFAULT_WEIR_COEFFICIENT,
  FLOW_WINDOW_LIMITS_S,
  SPILL_DELAY_LIMIT_S,
  STRAPPING_POINTS_LIMITS,
  resolveGeometry,
  type DeviceGeometry,
  type Geometry,
  type GeometryInput,
  type GeometryProblem,
  type SensorKind,
  type TankShape,
} from '@agua/shared';
import { LOCALE } from '@/lib/format';

export type ShapeKind = 'none' | TankShape['kind'];

export interface PointRow {
  level: string;
  volume: string;
}

/** The form keeps every number as typed text, so that '9,5' and '' survive editing. */
export interface GeometryFormValues {
  sensor: SensorKind;
  mountHeightM: string;
  zeroOffsetM: string;
  crestLevelM: string;
  shapeKind: ShapeKind;
  areaM2: string;
  diameterM: string;
  lengthM: string;
  points: PointRow[];
  weirWidthM: string;
  weirCoefficient: string;
  flowWindowS: string;
  onDelayS: string;
  offDelayS: string;
  deadbandM: string;
}

export type GeometryField = Exclude<keyof GeometryFormValues, 'sensor'> | 'sensor';
export type GeometryFieldErrors = Partial<Record<GeometryField, string>>;

/** Top to bottom as the dialog shows them: the first error found is focused. */
export const GEOMETRY_FIELD_ORDER: readonly GeometryField[] = [
  'sensor',
  'mountHeightM',
  'zeroOffsetM',
  'crestLevelM',
  'shapeKind',
  'areaM2',
  'diameterM',
  'lengthM',
  'points',
  'weirWidthM',
  'weirCoefficient',
  'flowWindowS',
  'onDelayS',
  'offDelayS',
  'deadbandM',
];

// Stored numbers are shown with the browser's decimal mark ('24,5' in es-ES), as typed.
const editNumber = new Intl.NumberFormat(LOCALE, { useGrouping: false, maximumFractionDigits: 6 });
const text = (value: number | null | undefined): string => (typeof value === 'number' && Number.isFinite(value) ? editNumber.format(value) : '');

/** '3,5', '3.5', ' 3 ' → a number; '' or anything else → null. */
export function parseDecimal(value: string): number | null {
  const t = value.trim().replace(',', '.');
  if (!t || !/^[-+]?(\d+\.?\d*|\.\d+)$/.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** The form starts from the stored version (or the defaults of a sensor never configured). */
export function geometryFormFrom(g: Pick<DeviceGeometry, keyof Geometry>): GeometryFormValues {
  const shape = g.shape;
  return {
    sensor: g.sensor,
    mountHeightM: text(g.mountHeightM),
    zeroOffsetM: text(g.zeroOffsetM),
    crestLevelM: text(g.crestLevelM),
    shapeKind: shape?.kind ?? 'none',
    areaM2: shape?.kind === 'rectangular' ? text(shape.areaM2) : '',
    diameterM: shape?.kind === 'vertical_cylinder' || shape?.kind === 'horizontal_cylinder' ? text(shape.diameterM) : '',
    lengthM: shape?.kind === 'horizontal_cylinder' ? text(shape.lengthM) : '',
    points: shape?.kind === 'table' ? shape.points.map((p) => ({ level: text(p.levelM), volume: text(p.volumeM3) })) : [{ level: '', volume: '' }, { level: '', volume: '' }],
    weirWidthM: text(g.weir?.widthM),
    weirCoefficient: text(g.weir?.coefficient ?? DEFAULT_WEIR_COEFFICIENT),
    flowWindowS: text(g.flowWindowS ?? DEFAULT_FLOW_WINDOW_S),
    onDelayS: text(g.spill?.onDelayS ?? DEFAULT_SPILL.onDelayS),
    offDelayS: text(g.spill?.offDelayS ?? DEFAULT_SPILL.offDelayS),
    deadbandM: text(g.spill?.deadbandM ?? DEFAULT_SPILL.deadbandM),
  };
}

const NOT_A_NUMBER = 'Escribe un número (p. ej. 9,5).';

/**
 * The PUT body the form stands for, or the fields whose text is not a number. An empty crest
 * means none, and the weir exists only with a crest and a width.
 */
export function geometryInputFrom(v: GeometryFormValues): { input: GeometryInput } | { errors: GeometryFieldErrors } {
  const errors: GeometryFieldErrors = {};
  const required = (field: GeometryField, value: string): number => {
    const n = parseDecimal(value);
    if (n === null) errors[field] = value.trim() ? NOT_A_NUMBER : 'Obligatorio.';
    return n ?? Number.NaN;
  };
  const optional = (field: GeometryField, value: string): number | null => {
    if (!value.trim()) return null;
    return required(field, value);
  };

  const crestLevelM = optional('crestLevelM', v.crestLevelM);
  const input: GeometryInput = {
    sensor: v.sensor,
    mountHeightM: v.sensor === 'distance' ? optional('mountHeightM', v.mountHeightM) : null,
    zeroOffsetM: v.zeroOffsetM.trim() ? required('zeroOffsetM', v.zeroOffsetM) : 0,
    crestLevelM,
    shape: shapeFrom(v, required, errors),
    weir: null,
    flowWindowS: required('flowWindowS', v.flowWindowS),
    spill: { onDelayS: required('onDelayS', v.onDelayS), offDelayS: required('offDelayS', v.offDelayS), deadbandM: required('deadbandM', v.deadbandM) },
  };
  if (crestLevelM !== null && v.weirWidthM.trim()) {
    input.weir = { widthM: required('weirWidthM', v.weirWidthM), coefficient: v.weirCoefficient.trim() ? required('weirCoefficient', v.weirCoefficient) : DEFAULT_WEIR_COEFFICIENT };
  }
  return Object.keys(errors).length > 0 ? { errors } : { input };
}

function shapeFrom(v: GeometryFormValues, required: (field: GeometryField, value: string) => number, errors: GeometryFieldErrors): TankShape | null {
  switch (v.shapeKind) {
    case 'none':
      return null;
    case 'rectangular':
      return { kind: 'rectangular', areaM2: required('areaM2', v.areaM2) };
    case 'vertical_cylinder':
      return { kind: 'vertical_cylinder', diameterM: required('diameterM', v.diameterM) };
    case 'horizontal_cylinder':
      return { kind: 'horizontal_cylinder', diameterM: required('diameterM', v.diameterM), lengthM: required('lengthM', v.lengthM) };
    case 'table': {
      // Blank rows are left out, so that a spare row at the end does not block saving.
      const rows = v.points.filter((r) => r.level.trim() || r.volume.trim());
      const points = rows.map((r) => ({ levelM: parseDecimal(r.level) ?? Number.NaN, volumeM3: parseDecimal(r.volume) ?? Number.NaN }));
      if (points.some((p) => Number.isNaN(p.levelM) || Number.isNaN(p.volumeM3))) errors.points = 'Cada fila necesita un nivel y un volumen numéricos.';
      return { kind: 'table', points };
    }
  }
}

/** The form field a problem's dotted path names ('shape.areaM2' → 'areaM2', 'weir' → 'weirWidthM'). */
export function fieldOfProblem(path: string): GeometryField {
  const map: Record<string, GeometryField> = {
    'shape.kind': 'shapeKind',
    'shape.points': 'points',
    'shape.areaM2': 'areaM2',
    'shape.diameterM': 'diameterM',
    'shape.lengthM': 'lengthM',
    weir: 'weirWidthM',
    'weir.widthM': 'weirWidthM',
    'weir.coefficient': 'weirCoefficient',
    'spill.onDelayS': 'onDelayS',
    'spill.offDelayS': 'offDelayS',
    'spill.deadbandM': 'deadbandM',
  };
  const field = map[path] ?? path;
  return (GEOMETRY_FIELD_ORDER as readonly string[]).includes(field) ? (field as GeometryField) : 'shapeKind';
}

const m = (n: number) => `${text(n)} m`;

/** A problem of resolveGeometry (or of the server's 422) in Spanish, for the field it names. */
export function problemMessage(problem: GeometryProblem, maxLevelM: number): string {
  const { field, reason } = problem;
  switch (reason) {
    case 'required_positive_for_distance':
      return 'Un sensor de distancia necesita su altura de montaje (mayor que 0).';
    case 'only_for_distance':
      return 'Solo se usa con sensores de distancia.';
    case 'must_be_positive':
      return 'Debe ser mayor que 0.';
    case 'needs_crest':
      return 'El vertedero necesita un nivel de vertedero.';
    case 'not_below_crest':
      return 'La banda muerta debe ser menor que el nivel de vertedero.';
    case 'count_out_of_range':
      return `La tabla necesita entre ${STRAPPING_POINTS_LIMITS.min} y ${STRAPPING_POINTS_LIMITS.max} filas.`;
    case 'not_a_number':
      return 'Cada fila necesita un nivel y un volumen numéricos.';
    case 'negative_volume':
      return 'Los volúmenes no pueden ser negativos.';
    case 'levels_not_increasing':
      return 'Los niveles deben crecer de una fila a la siguiente.';
    case 'volumes_not_increasing':
      return 'Los volúmenes deben crecer de una fila a la siguiente.';
    case 'out_of_range':
      return outOfRange(field, maxLevelM);
    default:
      return 'Valor no válido.';
  }
}

function outOfRange(field: string, maxLevelM: number): string {
  switch (field) {
    case 'zeroOffsetM':
      return `Debe estar entre −${m(maxLevelM)} y ${m(maxLevelM)} (nivel máximo).`;
    case 'crestLevelM':
      return `Debe ser mayor que 0 m y no superar el nivel máximo (${m(maxLevelM)}).`;
    case 'weir.coefficient':
      return 'Debe ser mayor que 0 y como mucho 1.';
    case 'flowWindowS':
      return `Un número entero de segundos entre ${FLOW_WINDOW_LIMITS_S.min} y ${FLOW_WINDOW_LIMITS_S.max}.`;
    case 'spill.onDelayS':
    case 'spill.offDelayS':
      return `Un número entero de segundos entre 0 y ${SPILL_DELAY_LIMIT_S}.`;
    case 'spill.deadbandM':
      return 'No puede ser negativa.';
    default:
      return 'Fuera de rango.';
  }
}

/** The form checked as the server will check it: the geometry, or the errors to show. */
export function validateGeometryForm(v: GeometryFormValues, maxLevelM: number): { geometry: Geometry; input: GeometryInput } | { errors: GeometryFieldErrors } {
  const parsed = geometryInputFrom(v);
  if ('errors' in parsed) return parsed;
  const resolved = resolveGeometry(parsed.input, maxLevelM);
  if ('problem' in resolved) return { errors: { [fieldOfProblem(resolved.problem.field)]: problemMessage(resolved.problem, maxLevelM) } };
  return { geometry: resolved.geometry, input: parsed.input };
}

/**
 * Rows pasted from a spreadsheet or a text: one 'level;volume' pair a line (tab also works, and
 * a comma when it cannot be the decimal mark, e.g. '1.5,40'). Lines that are not two numbers are skipped.
 */
export function parsePastedPoints(pasted: string): PointRow[] {
  const rows: PointRow[] = [];
  for (const line of pasted.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (!trimmed) continue;
    const parts = /[;\t]/.test(trimmed) ? trimmed.split(/\s*[;\t]\s*/) : trimmed.split(/\s*,\s*|\s+/);
    if (parts.length !== 2 || parseDecimal(parts[0]!) === null || parseDecimal(parts[1]!) === null) continue;
    rows.push({ level: parts[0]!, volume: parts[1]! });
  }
  return rows;
}
