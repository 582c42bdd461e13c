/**
 * A level sensor's geometry and calibration (docs/water.md "Geometry and calibration"): what the
 * sensor measures, where it is mounted, the tank's shape, its crest and weir, and the settings of
 * its flow figure and spill events. One validation for the server's PUT and the web app's form.
 */

export type SensorKind = 'level' | 'distance';

export type TankShape =
  | { kind: 'rectangular'; areaM2: number }
  | { kind: 'vertical_cylinder'; diameterM: number }
  | { kind: 'horizontal_cylinder'; diameterM: number; lengthM: number }
  | { kind: 'table'; points: StrappingPoint[] };

/** One row of a strapping table: the volume held at a level. */
export interface StrappingPoint {
  levelM: number;
  volumeM3: number;
}

/** A sharp-crested rectangular weir at the crest: its width and discharge coefficient. */
export interface Weir {
  widthM: number;
  coefficient: number;
}

/** When a spill event opens and closes (see docs/water.md "Overflow events"). */
export interface SpillSettings {
  onDelayS: number;
  offDelayS: number;
  deadbandM: number;
}

export interface Geometry {
  sensor: SensorKind;
  mountHeightM: number | null;
  zeroOffsetM: number;
  crestLevelM: number | null;
  shape: TankShape | null;
  weir: Weir | null;
  flowWindowS: number;
  spill: SpillSettings;
}

export const DEFAULT_WEIR_COEFFICIENT = 0.62;
export const DEFAULT_FLOW_WINDOW_S = 300;
export const FLOW_WINDOW_LIMITS_S = { min: 30, max: 3600 } as const;
export const SPILL_DELAY_LIMIT_S = 3600;
export const STRAPPING_POINTS_LIMITS = { min: 2, max: 500 } as const;
export const DEFAULT_SPILL: Readonly<SpillSettings> = { onDelayS: 30, offDelayS: 120, deadbandM: 0.02 };

/** A device that was never configured: it stores what it sends and has no volume figures. */
export const DEFAULT_GEOMETRY: Readonly<Geometry> = {
  sensor: 'level',
  mountHeightM: null,
  zeroOffsetM: 0,
  crestLevelM: null,
  shape: null,
  weir: null,
  flowWindowS: DEFAULT_FLOW_WINDOW_S,
  spill: DEFAULT_SPILL,
};

/** Why a geometry was refused: the field (dotted path) and a machine-readable reason. */
export interface GeometryProblem {
  field: string;
  reason: string;
}

/** The input of a PUT: every field optional (left out: the default). */
export type GeometryInput = {
  sensor?: SensorKind;
  mountHeightM?: number | null;
  zeroOffsetM?: number;
  crestLevelM?: number | null;
  shape?: TankShape | null;
  weir?: { widthM: number; coefficient?: number } | null;
  flowWindowS?: number;
  spill?: Partial<SpillSettings>;
};

/**
 * Completes an input with the defaults and checks it against the device's `maxLevel`: the
 * geometry, or the first problem found (the server answers it as `422 GEOMETRY_INVALID`).
 */
export function resolveGeometry(input: GeometryInput, maxLevelM: number): { geometry: Geometry } | { problem: GeometryProblem } {
  const sensor = input.sensor ?? 'level';
  const geometry: Geometry = {
    sensor,
    mountHeightM: sensor === 'distance' ? (input.mountHeightM ?? null) : null,
    zeroOffsetM: input.zeroOffsetM ?? 0,
    crestLevelM: input.crestLevelM ?? null,
    shape: input.shape ?? null,
    weir: input.weir ? { widthM: input.weir.widthM, coefficient: input.weir.coefficient ?? DEFAULT_WEIR_COEFFICIENT } : null,
    flowWindowS: input.flowWindowS ?? DEFAULT_FLOW_WINDOW_S,
    spill: { ...DEFAULT_SPILL, ...input.spill },
  };
  const problem = geometryProblem(geometry, maxLevelM, input);
  return problem ? { problem } : { geometry };
}

function geometryProblem(g: Geometry, maxLevelM: number, input: GeometryInput): GeometryProblem | null {
  const bad = (field: string, reason: string): GeometryProblem => ({ field, reason });
  if (g.sensor === 'distance' && !(positive(g.mountHeightM))) return bad('mountHeightM', 'required_positive_for_distance');
  if (g.sensor === 'level' && input.mountHeightM != null) return bad('mountHeightM', 'only_for_distance');
  if (!finite(g.zeroOffsetM) || Math.abs(g.zeroOffsetM) > maxLevelM) return bad('zeroOffsetM', 'out_of_range');
  if (g.crestLevelM !== null && !(finite(g.crestLevelM) && g.crestLevelM > 0 && g.crestLevelM <= maxLevelM)) return bad('crestLevelM', 'out_of_range');
  const shape = g.shape ? shapeProblem(g.shape) : null;
  if (shape) return shape;
  if (g.weir) {
    if (g.crestLevelM === null) return bad('weir', 'needs_crest');
    if (!positive(g.weir.widthM)) return bad('weir.widthM', 'must_be_positive');
    if (!(finite(g.weir.coefficient) && g.weir.coefficient > 0 && g.weir.coefficient <= 1)) return bad('weir.coefficient', 'out_of_range');
  }
  if (!(Number.isInteger(g.flowWindowS) && g.flowWindowS >= FLOW_WINDOW_LIMITS_S.min && g.flowWindowS <= FLOW_WINDOW_LIMITS_S.max)) return bad('flowWindowS', 'out_of_range');
  for (const key of ['onDelayS', 'offDelayS'] as const) {
    const v = g.spill[key];
    if (!(Number.isInteger(v) && v >= 0 && v <= SPILL_DELAY_LIMIT_S)) return bad(`spill.${key}`, 'out_of_range');
  }
  const { deadbandM } = g.spill;
  if (!(finite(deadbandM) && deadbandM >= 0)) return bad('spill.deadbandM', 'out_of_range');
  if (g.crestLevelM !== null && deadbandM >= g.crestLevelM) return bad('spill.deadbandM', 'not_below_crest');
  return null;
}

function shapeProblem(shape: TankShape): GeometryProblem | null {
  const bad = (field: string, reason: string): GeometryProblem => ({ field: `shape.${field}`, reason });
  switch (shape.kind) {
    case 'rectangular':
      return positive(shape.areaM2) ? null : bad('areaM2', 'must_be_positive');
    case 'vertical_cylinder':
      return positive(shape.diameterM) ? null : bad('diameterM', 'must_be_positive');
    case 'horizontal_cylinder':
      if (!positive(shape.diameterM)) return bad('diameterM', 'must_be_positive');
      return positive(shape.lengthM) ? null : bad('lengthM', 'must_be_positive');
    case 'table':
      return tableProblem(shape.points);
    default:
      return bad('kind', 'unknown');
  }
}

function tableProblem(points: readonly StrappingPoint[]): GeometryProblem | null {
  const bad = (reason: string): GeometryProblem => ({ field: 'shape.points', reason });
  if (!Array.isArray(points) || points.length < STRAPPING_POINTS_LIMITS.min || points.length > STRAPPING_POINTS_LIMITS.max) return bad('count_out_of_range');
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    if (!finite(p.levelM) || !finite(p.volumeM3)) return bad('not_a_number');
    if (p.volumeM3 < 0) return bad('negative_volume');
    if (i > 0 && !(p.levelM > points[i - 1]!.levelM)) return bad('levels_not_increasing');
    if (i > 0 && !(p.volumeM3 > points[i - 1]!.volumeM3)) return bad('volumes_not_increasing');
  }
  return null;
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const positive = (v: unknown): v is number => finite(v) && v > 0;

/**
 * The level stored for what a sensor sent: a distance sensor measures down to the surface, so
 * the level is the mounting height less that distance; both kinds then add the zero offset.
 */
export function levelFromSensor(geometry: Pick<Geometry, 'sensor' | 'mountHeightM' | 'zeroOffsetM'>, value: number): number {
  const level = geometry.sensor === 'distance' ? (geometry.mountHeightM ?? 0) - value : value;
  return level + geometry.zeroOffsetM;
}
