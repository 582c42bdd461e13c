import { describe, expect, it } from 'vitest';
import type { Alarm } from '@agua/shared';
import { alarmCountText, siteAlarmStatuses } from './site-status';

const alarm = (deviceId: string, priority: number, state: Alarm['state']) => ({ deviceId, priority, state }) as Pick<Alarm, 'deviceId' | 'priority' | 'state'>;

describe('siteAlarmStatuses', () => {
  const devices = [
    { id: 'a', siteId: 's1' },
    { id: 'b', siteId: 's1' },
    { id: 'c', siteId: 's2' },
    { id: 'd', siteId: null },
  ];

  it('counts the alarms waiting for an acknowledgement per site, with the worst priority', () => {
    const statuses = siteAlarmStatuses(devices, [alarm('a', 2, 'unack'), alarm('b', 1, 'rtn_unack'), alarm('c', 3, 'unack')]);
    expect(statuses.get('s1')).toEqual({ waiting: 2, worst: 1 });
    expect(statuses.get('s2')).toEqual({ waiting: 1, worst: 3 });
  });

  it('leaves out acknowledged and shelved alarms, and devices without a site', () => {
    const statuses = siteAlarmStatuses(devices, [alarm('a', 1, 'ack'), alarm('b', 1, 'shelved'), alarm('d', 1, 'unack')]);
    expect(statuses.size).toBe(0);
  });

  it('says the count in words', () => {
    expect(alarmCountText({ waiting: 0, worst: null })).toBe('Sin alarmas');
    expect(alarmCountText({ waiting: 1, worst: 2 })).toBe('1 alarma');
    expect(alarmCountText({ waiting: 2, worst: 1 })).toBe('2 alarmas');
  });
});
