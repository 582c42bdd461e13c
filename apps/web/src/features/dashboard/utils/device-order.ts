import type { Alarm, AlarmPriority, Device } from '@agua/shared';
import { summarizeAlarms } from '@/features/alarms/utils/alarm-summary';

/**
 * How urgently a device asks for a look, lower first: an active alarm by its priority (1–4),
 * then a critical or failed reading, a device that is not online, a warning, alarms that only wait
 * for an acknowledgement or are shelved, and last the normal ones.
 */
function urgency(device: Device, alarms: readonly Alarm[]): number {
  const summary = summarizeAlarms(alarms);
  if (summary.worstActive !== null) return summary.worstActive as AlarmPriority;
  const status = device.reading?.status;
  if (device.status === 'online' && (status === 'critical' || status === 'fault')) return 5;
  if (device.status !== 'online') return 6;
  if (status === 'warning') return 7;
  if (summary.returnedUnacked + summary.shelved > 0) return 8;
  return 9;
}

/** The dashboard's order: what is abnormal first (ISA-101), otherwise the order the server gives. */
export function abnormalFirst(devices: readonly Device[], openAlarms: readonly Alarm[]): Device[] {
  const byDevice = new Map<string, Alarm[]>();
  for (const a of openAlarms) byDevice.set(a.deviceId, [...(byDevice.get(a.deviceId) ?? []), a]);
  return devices
    .map((device, index) => ({ device, index, rank: urgency(device, byDevice.get(device.id) ?? []) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((x) => x.device);
}
