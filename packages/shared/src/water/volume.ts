import type { Geometry, TankShape } from './geometry';

/** 'extrapolated' when the level lay outside what the shape describes and was clamped to it. */
export type VolumeQuality = 'good' | 'extrapolated';

export interface Volume {
  volumeM3: number;
  quality: VolumeQuality;
}

/**
 * The volume held at level `h` (m) in a tank of this shape (docs/water.md "Volume, flow, time to
 * overflow"). Levels below 0, above a horizontal cylinder's diameter or outside a strapping
 * table are clamped to the nearest volume the shape knows, and said to be extrapolated.
 */
export function volumeAt(shape: TankShape, h: number): Volume {
  const clampedLow = h < 0;
  const level = clampedLow ? 0 : h;
  switch (shape.kind) {
    case 'rectangular':
      return { volumeM3: shape.areaM2 * level, quality: clampedLow ? 'extrapolated' : 'good' };
    case 'vertical_cylinder':
      return { volumeM3: Math.PI * (shape.diameterM / 2) ** 2 * level, quality: clampedLow ? 'extrapolated' : 'good' };
    case 'horizontal_cylinder': {
      const full = level > shape.diameterM;
      return { volumeM3: horizontalCylinderVolume(shape.diameterM, shape.lengthM, full ? shape.diameterM : level), quality: clampedLow || full ? 'extrapolated' : 'good' };
    }
    case 'table':
      return tableVolume(shape.points, h);
  }
}

/** A lying cylinder's circular segment times its length: L·(r²·acos((r−h)/r) − (r−h)·√(2rh−h²)). */
function horizontalCylinderVolume(diameterM: number, lengthM: number, h: number): number {
  const r = diameterM / 2;
  const cos = Math.min(1, Math.max(-1, (r - h) / r));
  return lengthM * (r * r * Math.acos(cos) - (r - h) * Math.sqrt(Math.max(0, 2 * r * h - h * h)));
}

/** Linear interpolation between the table's points; outside them, the end volume. */
function tableVolume(points: ReadonlyArray<{ levelM: number; volumeM3: number }>, h: number): Volume {
  const first = points[0]!;
  const last = points[points.length - 1]!;
  if (h < first.levelM) return { volumeM3: first.volumeM3, quality: 'extrapolated' };
  if (h > last.levelM) return { volumeM3: last.volumeM3, quality: 'extrapolated' };
  // Binary search for the segment [lo, lo + 1] that holds h.
  let lo = 0;
  let hi = points.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (points[mid]!.levelM <= h) lo = mid;
    else hi = mid;
  }
  const a = points[lo]!;
  const b = points[hi]!;
  const t = b.levelM === a.levelM ? 0 : (h - a.levelM) / (b.levelM - a.levelM);
  return { volumeM3: a.volumeM3 + t * (b.volumeM3 - a.volumeM3), quality: 'good' };
}

/** The volume against which fill and time to overflow are judged: at the crest where set, else at maxLevel. */
export function referenceVolume(geometry: Pick<Geometry, 'shape' | 'crestLevelM'>, maxLevelM: number): number | null {
  if (!geometry.shape) return null;
  return volumeAt(geometry.shape, geometry.crestLevelM ?? maxLevelM).volumeM3;
}
