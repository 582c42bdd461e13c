import { volumeAt, type TankShape } from '@agua/shared';

/** Bisection halves [0, maxLevel] this many times: 10 m / 2⁴⁰ is far below a sensor's resolution. */
const BISECTION_STEPS = 40;

/**
 * The level at which a tank of this shape holds `volumeM3`: the inverse of the shared `volumeAt`
 * (docs/water.md "Volume"), found by bisection so that every shape — a lying cylinder, a strapping
 * table — is inverted by the very function the server computes volumes with, not by a formula
 * of our own. Volume never falls as the level rises, so the lowest level holding the volume is
 * well defined; outside what [0, maxLevel] holds, the nearest end.
 */
export function levelOfVolume(shape: TankShape, maxLevelM: number, volumeM3: number): number {
  let lo = 0;
  let hi = maxLevelM;
  if (volumeM3 <= volumeAt(shape, lo).volumeM3) return lo;
  if (volumeM3 > volumeAt(shape, hi).volumeM3) return hi;
  for (let i = 0; i < BISECTION_STEPS; i++) {
    const mid = (lo + hi) / 2;
    if (volumeAt(shape, mid).volumeM3 < volumeM3) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
