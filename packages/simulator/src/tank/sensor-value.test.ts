import { levelFromSensor, type Geometry, type TankShape } from '@agua/shared';
import { describe, expect, it } from 'vitest';
import { levelOfVolume } from './level-of-volume';
import { sensorValue } from './sensor-value';

type Calibration = Pick<Geometry, 'sensor' | 'mountHeightM' | 'zeroOffsetM'>;

describe('sensorValue: what a board sends for a level', () => {
  it.each<[string, Calibration]>([
    ['a level sensor', { sensor: 'level', mountHeightM: null, zeroOffsetM: 0 }],
    ['a level sensor with an offset', { sensor: 'level', mountHeightM: null, zeroOffsetM: -0.3 }],
    ['a distance sensor', { sensor: 'distance', mountHeightM: 6, zeroOffsetM: 0 }],
    ['a distance sensor with an offset', { sensor: 'distance', mountHeightM: 6, zeroOffsetM: 0.12 }],
  ])('%s: the server turns it back into the level, to the centimetre', (_name, calibration) => {
    for (const level of [0, 0.37, 2.5, 4.99, 5]) {
      expect(levelFromSensor(calibration, sensorValue(calibration, level))).toBeCloseTo(level, 9);
    }
  });

  it('a distance sensor sends the distance down to the water, two decimals, never below 0', () => {
    const calibration: Calibration = { sensor: 'distance', mountHeightM: 6, zeroOffsetM: 0 };
    expect(sensorValue(calibration, 2.5)).toBe(3.5);
    expect(sensorValue(calibration, 1.2345)).toBe(4.77);
    expect(sensorValue(calibration, 6.4)).toBe(0);
  });
});

describe('levelOfVolume: the shared volume, inverted', () => {
  it('finds the level of a volume in a lying cylinder and a table, and the ends outside them', () => {
    const lying: TankShape = { kind: 'horizontal_cylinder', diameterM: 2, lengthM: 10 };
    // Half full: half of π·1²·10.
    expect(levelOfVolume(lying, 3, (Math.PI * 10) / 2)).toBeCloseTo(1, 9);
    // Full from 2 m on: the lowest level that holds it.
    expect(levelOfVolume(lying, 3, Math.PI * 10)).toBeCloseTo(2, 9);
    const table: TankShape = { kind: 'table', points: [{ levelM: 0.5, volumeM3: 5 }, { levelM: 1.5, volumeM3: 25 }] };
    expect(levelOfVolume(table, 2, 15)).toBeCloseTo(1, 9);
    expect(levelOfVolume(table, 2, 1)).toBe(0);
    expect(levelOfVolume(table, 2, 99)).toBe(2);
  });
});
