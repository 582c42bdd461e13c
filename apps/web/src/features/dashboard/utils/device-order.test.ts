import { describe, expect, it } from 'vitest';
import type { Alarm, Device } from '@agua/shared';
import { abnormalFirst } from './device-order';

const device = (id: string, status: Device['status'], readingStatus: string | null = 'normal') =>
  ({ id, status, reading: readingStatus ? { value: 1, unit: 'm', status: readingStatus, ts: '2026-11-28T10:00:00Z' } : null }) as unknown as Device;
const alarm = (deviceId: string, priority: number, state: Alarm['state']) => ({ id: `${deviceId}-${priority}-${state}`, deviceId, priority, state }) as Alarm;

describe('dashboard order', () => {
  it('puts active alarms first by priority, then critical readings, offline devices, warnings, waiting alarms, normal ones', () => {
    const devices = [
      device('normal', 'online'),
      device('waiting', 'online'),
      device('warning', 'online', 'warning'),
      device('offline', 'offline'),
      device('critical', 'online', 'critical'),
      device('alta', 'online'),
      device('critica', 'online'),
    ];
    const alarms = [alarm('alta', 2, 'unack'), alarm('critica', 1, 'ack'), alarm('waiting', 1, 'rtn_unack'), alarm('normal', 1, 'shelved'), alarm('normal', 3, 'rtn_unack')];
    expect(abnormalFirst(devices, alarms).map((d) => d.id)).toEqual(['critica', 'alta', 'critical', 'offline', 'warning', 'normal', 'waiting']);
  });
  it('keeps the server order among equals', () => {
    const devices = [device('b', 'online'), device('a', 'online'), device('c', 'online')];
    expect(abnormalFirst(devices, []).map((d) => d.id)).toEqual(['b', 'a', 'c']);
  });
});
