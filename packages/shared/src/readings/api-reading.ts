import type { GateState } from '../devices/devices';
import type { Reading } from '../schemas/device';
import type { ReadingStatus } from './status';

/** A reading as the server stores it (history, current reading). */
export interface StoredReadingFields {
  tsMs: number;
  valueNum: number | null;
  valueText: string | null;
  status: ReadingStatus;
  /** What a level sensor sent where it differs from the level stored; null where the same. */
  rawNum: number | null;
}

/**
 * The API's Reading of a stored one: a level in m with `raw`, what the sensor sent (a distance
 * sensor's distance, docs/water.md); a gate its state, no unit. One mapping for pages, the
 * current reading and the live socket.
 */
export function apiReading(r: StoredReadingFields): Reading {
  const ts = new Date(r.tsMs).toISOString();
  return r.valueNum !== null
    ? { value: r.valueNum, unit: 'm', status: r.status, ts, raw: r.rawNum ?? r.valueNum }
    : { value: r.valueText as GateState, unit: null, status: r.status, ts };
}
