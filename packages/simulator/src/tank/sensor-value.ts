import type { Geometry } from '@agua/shared';

/** What the sensor's own calibration is: the geometry fields that turn its value into a level. */
export type SensorCalibration = Pick<Geometry, 'sensor' | 'mountHeightM' | 'zeroOffsetM'>;

/**
 * What a sensor sends for a true level: the inverse of the server's `levelFromSensor`
 * (docs/water.md "At ingest"), so that the level the server stores is the level in the tank. A
 * distance sensor sends the distance down to the surface, never less than 0 (water touching the
 * sensor); a level sensor with a zero offset sends the level less the offset. Two decimals, as
 * the boards send.
 */
export function sensorValue(calibration: SensorCalibration, levelM: number): number {
  const raw = calibration.sensor === 'distance' ? Math.max(0, (calibration.mountHeightM ?? 0) + calibration.zeroOffsetM - levelM) : levelM - calibration.zeroOffsetM;
  return Math.round(raw * 100) / 100;
}
