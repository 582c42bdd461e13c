import { volumeAt, type ReadingStatus } from '@agua/shared';
import type { GeometryService } from './geometry.service';

interface Row {
  tsMs: number;
  valueNum: number | null;
  rawNum: number | null;
  status: ReadingStatus;
}

/**
 * The exports' water cells of a level sensor with a geometry (version ≥ 1, docs/water.md
 * "Export"): each row's volume by the version valid at its time (empty without a shape, and for a
 * fault reading, which counts in no figure), and what the sensor sent. Null for other devices.
 */
export function exportWaterColumns(geometry: GeometryService) {
  return (deviceId: string): ((row: Row) => [number | null, number | null]) | null => {
    if (!geometry.configured(deviceId)) return null;
    return (row) => {
      if (row.valueNum === null) return [null, null];
      const shape = geometry.at(deviceId, row.tsMs).shape;
      const volume = shape && row.status !== 'fault' ? volumeAt(shape, row.valueNum).volumeM3 : null;
      return [volume, row.rawNum ?? row.valueNum];
    };
  };
}
