import { toAlarmChangeRow } from '../../src/features/alarms/alarm-change-rows';
import type { AlarmChange, AlarmRecord } from '../../src/features/alarms/alarms.repository';
import type { AlarmChangeRow } from '../../src/storage/ingest/rows';

/** A high-high alarm just raised on a device, as the alarm engine hands it to the ingest store. */
export function raisedAlarm(id: string, atMs: number, deviceId = 'd1'): AlarmChangeRow {
  return toAlarmChangeRow(raisedAlarmChange(id, atMs, deviceId));
}

/** The same, as the alarm engine makes it. */
export function raisedAlarmChange(id: string, atMs: number, deviceId = 'd1'): AlarmChange {
  const alarm: AlarmRecord = {
    id,
    deviceId,
    ruleId: `rule_${id}`,
    kind: 'level_high_high',
    priority: 1,
    state: 'unack',
    raisedAtMs: atMs,
    ackedAtMs: null,
    ackedBy: null,
    ackComment: null,
    clearedAtMs: null,
    shelvedUntilMs: null,
    shelvedBy: null,
    shelveComment: null,
    value: 9.5,
    peakValue: 9.5,
    message: 'Nivel muy alto',
    endedAtMs: null,
  };
  return { alarm, transition: { atMs, from: null, to: 'unack', by: null, comment: null }, isNew: true };
}
