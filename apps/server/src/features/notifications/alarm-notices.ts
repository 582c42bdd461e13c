import { alarmNotification, type AlarmFacts } from '@agua/shared';
import type { AlarmChange, AlarmRecord } from '../alarms/alarms.repository';
import type { DevicesService } from '../devices/devices.service';
import type { NotificationDirectory } from './notification-directory';
import type { AlarmNotice } from './outbox';

/**
 * Attaches to each alarm change what it tells people (docs/alarms.md "Who is told"), so that it is
 * written to the outbox in the change's own transaction:
 * - to `unack` (raised, raised again, or unshelved while active): everyone it reaches now;
 * - to `rtn_unack`, or from `ack` to `cleared` ('Normalizada'): everyone told of it before.
 * A failed command is an event, raised and returned at once: it says nothing on returning.
 */
export class AlarmNotices {
  constructor(
    private readonly directory: NotificationDirectory,
    private readonly devices: DevicesService,
    private readonly link: () => string | null,
  ) {}

  annotate(changes: AlarmChange[]): void {
    for (const change of changes) {
      const notice = this.noticeOf(change);
      if (notice) change.notice = notice;
    }
  }

  facts(alarm: AlarmRecord, atMs: number): AlarmFacts {
    const device = this.devices.get(alarm.deviceId);
    return {
      alarmId: alarm.id,
      priority: alarm.priority,
      message: alarm.message,
      deviceId: alarm.deviceId,
      deviceName: device?.name ?? alarm.deviceId,
      location: device?.location ?? '',
      atMs,
    };
  }

  private noticeOf({ alarm, transition: t }: AlarmChange): AlarmNotice | null {
    if (t.to === 'unack' && t.from !== 'unack') {
      const targets = this.directory.raisedTargets(alarm.priority);
      return targets.length > 0 ? { event: 'raised', targets, content: alarmNotification('raised', this.facts(alarm, t.atMs), this.link()) } : null;
    }
    const normalized = t.to === 'rtn_unack' || (t.from === 'ack' && t.to === 'cleared');
    if (normalized && alarm.kind !== 'command_failed') return { event: 'cleared', content: alarmNotification('cleared', this.facts(alarm, t.atMs), this.link()) };
    return null;
  }
}
