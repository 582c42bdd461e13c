import { describe, expect, it } from 'vitest';
import type { Alarm } from '@agua/shared';
import { applyAlarmUpdate } from './alarm-cache';

const alarm = (id: string, over: Partial<Alarm> = {}): Alarm => ({
  id,
  deviceId: 'd1',
  ruleId: `r_${id}`,
  kind: 'level_high',
  priority: 3,
  state: 'unack',
  raisedAt: '2026-11-24T10:00:00.000Z',
  ackedAt: null,
  ackedBy: null,
  ackComment: null,
  clearedAt: null,
  shelvedUntil: null,
  shelvedBy: null,
  shelveComment: null,
  value: 1,
  peakValue: 1,
  message: 'm',
  ...over,
});

describe('open alarms from alarm.updated', () => {
  it('adds a raised alarm, highest priority first then newest', () => {
    const a = alarm('a', { priority: 3, raisedAt: '2026-11-24T10:00:00.000Z' });
    const b = alarm('b', { priority: 1, raisedAt: '2026-11-24T09:00:00.000Z' });
    const c = alarm('c', { priority: 3, raisedAt: '2026-11-24T11:00:00.000Z' });
    expect(applyAlarmUpdate(applyAlarmUpdate(applyAlarmUpdate([], a), b), c).map((x) => x.id)).toEqual(['b', 'c', 'a']);
  });
  it('replaces an alarm that moved and drops one that is over', () => {
    const open = [alarm('a'), alarm('b')];
    const acked = applyAlarmUpdate(open, alarm('a', { state: 'ack' }));
    expect(acked.find((x) => x.id === 'a')?.state).toBe('ack');
    expect(applyAlarmUpdate(acked, alarm('a', { state: 'cleared' })).map((x) => x.id)).toEqual(['b']);
    expect(applyAlarmUpdate(acked, alarm('b', { state: 'suppressed' })).map((x) => x.id)).toEqual(['a']);
  });
});
