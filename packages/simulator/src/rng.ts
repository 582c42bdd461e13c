import { randomBytes } from 'node:crypto';

/** A source of uniform numbers in [0, 1), like Math.random; injectable so tests are repeatable. */
export type Rng = () => number;

/**
 * mulberry32: tiny, fast and good enough for a simulation. Seeded so that a test (or a bug report)
 * can replay the exact same water levels.
 */
export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A fresh random seed, for devices that were given none. */
export function randomSeed(): number {
  return randomBytes(4).readUInt32LE(0);
}

/** Standard normal sample (Box–Muller); noise in nature is closer to this than to uniform. */
export function gaussian(rng: Rng): number {
  const u = 1 - rng(); // (0, 1]: log(0) would be -Infinity
  const v = rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/**
 * The `boot` of a message: a short random string picked at each start, so that a restarted counter
 * (seq from 0 again) is not mistaken for duplicates (docs/protocol.md). 8 hex chars, like firmware would
 * derive from esp_random().
 */
export function newBoot(rng?: Rng): string {
  if (!rng) return randomBytes(4).toString('hex');
  let s = '';
  for (let i = 0; i < 8; i++) s += Math.floor(rng() * 16).toString(16);
  return s;
}
