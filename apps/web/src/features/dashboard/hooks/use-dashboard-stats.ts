import { useMemo } from 'react';
import type { Device } from '@agua/shared';
import { hasLiveReading } from '@/lib/device-helpers';

export interface DashboardStats {
  total: number;
  online: number;
  /** The online level sensors whose current reading is critical (the seed's 'Alertas Críticas'), named on the tile. */
  critical: Device[];
  activeSensors: number;
}

/** The seed's four tiles, counted as docs/product.md says. */
export function computeDashboardStats(devices: Device[]): DashboardStats {
  let online = 0;
  const critical: Device[] = [];
  let activeSensors = 0;
  for (const d of devices) {
    if (d.status !== 'online') continue;
    online += 1;
    if (hasLiveReading(d)) activeSensors += 1;
    if (d.type === 'level_sensor' && d.reading?.status === 'critical') critical.push(d);
  }
  return { total: devices.length, online, critical, activeSensors };
}

export function useDashboardStats(devices: Device[]): DashboardStats {
  return useMemo(() => computeDashboardStats(devices), [devices]);
}
