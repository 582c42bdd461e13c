import { levelThresholdsOf, type Alarm, type ConditionAlarm, type ConditionDevice, type ConditionFacts } from '@agua/shared';
import { offlineAfterS } from '../devices/device.mapper';
import type { DevicesService } from '../devices/devices.service';

/** Whether an open alarm counts as active for a permissive: raised and unended, or shelved while its condition holds. */
function isActiveForPermissive(a: Alarm): boolean {
  return a.state === 'unack' || a.state === 'ack' || (a.state === 'shelved' && a.clearedAt === null);
}

/**
 * The facts interlock conditions are judged on, as this instance knows them now: each device's
 * record, reading and online state, and the open alarms.
 */
export function conditionFacts(devices: DevicesService, openAlarms: () => Alarm[], defaultOfflineAfterS: number): () => ConditionFacts {
  return () => {
    const nowMs = Date.now();
    let active: Map<string, ConditionAlarm[]> | null = null;
    return {
      nowMs,
      device(id): ConditionDevice | undefined {
        const d = devices.get(id);
        if (!d || d.retiredAtMs !== null) return undefined;
        const r = d.reading;
        return {
          name: d.name,
          online: devices.isOnline(id),
          enabled: d.enabled,
          maxLevel: d.type === 'level_sensor' ? levelThresholdsOf(d.settings).maxLevel : null,
          offlineAfterS: offlineAfterS(d, defaultOfflineAfterS),
          reading: r ? { value: r.valueNum ?? r.valueText ?? '', status: r.status, tsMs: r.tsMs } : null,
          gateState: d.gateState,
        };
      },
      activeAlarms(deviceId) {
        if (active === null) {
          active = new Map();
          // Highest priority first (the reason names the most important one).
          for (const a of openAlarms()) {
            if (!isActiveForPermissive(a)) continue;
            const list = active.get(a.deviceId) ?? [];
            list.push({ kind: a.kind, priority: a.priority, message: a.message });
            active.set(a.deviceId, list);
          }
        }
        return active.get(deviceId) ?? [];
      },
    };
  };
}
