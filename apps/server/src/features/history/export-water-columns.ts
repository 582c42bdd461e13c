import type { HistoryRow } from './readings.repository';

/** The exports' columns after `Estado` for level sensors with a geometry (docs/water.md "Export"). */
export const WATER_HEADERS = ['Volumen (m³)', 'Lectura bruta (m)'] as const;

/** A row's volume (m³) and what the sensor sent (m); null for an empty cell. */
export type WaterCells = (row: HistoryRow) => [volumeM3: number | null, raw: number | null];

/**
 * A device's water cells, or null for a device without them (a gate, a level sensor never given
 * a geometry): the water feature answers (app.ts), the exports only lay the cells out.
 */
export type WaterColumnsOf = (deviceId: string) => WaterCells | null;

export const NO_WATER_COLUMNS: WaterColumnsOf = () => null;
