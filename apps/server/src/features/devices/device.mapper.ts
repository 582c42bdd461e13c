import { apiReading, DEFAULT_READING_INTERVAL_S, DEFAULT_TRAVEL_TIMEOUT_S, levelThresholdsOf, type Command, type Device, type WaterAnalytics } from '@agua/shared';
import { iso } from '../../lib/time';
import type { DeviceRecord } from './devices.repository';



/** Offline timeout of a device: its own, or the server's default. */
export function offlineAfterS(d: DeviceRecord, defaultS: number): number {
  return d.settings.offlineAfterS ?? defaultS;
}

/** How often a level sensor reads: its own setting, else the default (docs/water.md "Daily totals"). */
export function readingIntervalS(d: DeviceRecord): number {
  return d.settings.readingIntervalS ?? DEFAULT_READING_INTERVAL_S;
}

/** The API's Device of a device record and its live state. */
export function toDevice(
  d: DeviceRecord,
  live: { online: boolean; lastCommand: Command | null },
  defaultOfflineAfterS: number,
  analytics: WaterAnalytics | null,
): Device {
  const config: Device['config'] =
    d.type === 'level_sensor'
      ? {
          ...levelThresholdsOf(d.settings),
          unit: 'm',
          offlineAfterS: offlineAfterS(d, defaultOfflineAfterS),
          readingIntervalS: readingIntervalS(d),
        }
      : {
          state: d.gateState,
          travelTimeoutS: d.settings.travelTimeoutS ?? DEFAULT_TRAVEL_TIMEOUT_S,
          offlineAfterS: offlineAfterS(d, defaultOfflineAfterS),
        };
  return {
    id: d.id,
    name: d.name,
    location: d.location,
    type: d.type,
    waterType: d.waterType,
    status: live.online ? 'online' : 'offline',
    enabled: d.enabled,
    lastSeen: iso(d.lastSeenMs),
    lastCommand: live.lastCommand,
    config,
    reading: d.reading ? apiReading(d.reading) : null,
    analytics,
    siteId: d.siteId,
  };
}
