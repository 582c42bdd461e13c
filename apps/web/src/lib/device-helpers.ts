/** Small, pure readings of a Device that several screens need. */
import type { Device, GateConfig, GateState, LevelSensorConfig } from '@agua/shared';
import { DEFAULT_OFFLINE_AFTER_S, DEFAULT_READING_INTERVAL_S, GATE_STATES, levelThresholdsOf } from '@agua/shared';

export function levelConfig(device: Device): LevelSensorConfig | null {
  if (device.type !== 'level_sensor') return null;
  const c = device.config as Partial<LevelSensorConfig>;
  if (typeof c.maxLevel !== 'number') return null;
  return {
    ...levelThresholdsOf(c),
    unit: 'm',
    offlineAfterS: c.offlineAfterS ?? DEFAULT_OFFLINE_AFTER_S,
    readingIntervalS: c.readingIntervalS ?? DEFAULT_READING_INTERVAL_S,
  };
}

export function isGateState(value: unknown): value is GateState {
  return typeof value === 'string' && (GATE_STATES as readonly string[]).includes(value);
}

/**
 * The gate's state as the server knows it (`config.state`): its newest report, including the
 * state an acknowledgement carries and a travel fault; else its latest reading.
 */
export function gateState(device: Device): GateState | null {
  if (device.type !== 'motorized_gate') return null;
  const state = (device.config as Partial<GateConfig>).state;
  if (isGateState(state)) return state;
  return device.reading && isGateState(device.reading.value) ? device.reading.value : null;
}

export function offlineAfterMs(device: Device): number {
  const s = (device.config as { offlineAfterS?: unknown }).offlineAfterS;
  return (typeof s === 'number' && s > 0 ? s : DEFAULT_OFFLINE_AFTER_S) * 1000;
}

/** Whether the device is online and has a reading to show (the seed shows readings only then). */
export function hasLiveReading(device: Device): boolean {
  return device.status === 'online' && device.reading !== null;
}

/**
 * A value older than the device's offline timeout is no longer trustworthy as "now" (the device
 * may be fine but silent, or our live link may be down): screens grey it out.
 */
export function isReadingStale(device: Device, now: number): boolean {
  if (!device.reading) return true;
  return now - Date.parse(device.reading.ts) > offlineAfterMs(device);
}
