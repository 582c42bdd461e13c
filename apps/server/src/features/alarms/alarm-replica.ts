import type { AlarmRecord } from './alarms.repository';
import type { OpenAlarms } from './open-alarms';
import type { AlarmTimers } from './alarm-timers';

/**
 * Several instances (ADR 013): the alarms of devices decided for elsewhere are a replica, kept
 * from the announcements of the instance that decides for them, and reloaded from the storage
 * when announcements may have been lost. A shelved alarm's timer runs here too, so that the
 * shelving still ends if its device moves to this instance.
 */
export class AlarmReplica {
  constructor(
    private readonly open: OpenAlarms,
    private readonly timers: AlarmTimers,
    private readonly scheduleUnshelve: (alarm: AlarmRecord) => void,
    private readonly runsTimersOf: (deviceId: string) => boolean,
  ) {}

  /** An alarm change another instance stored and announced. */
  follow(alarm: AlarmRecord): void {
    this.open.follow(alarm);
    if (alarm.state === 'shelved') this.scheduleUnshelve(alarm);
    else this.timers.cancelShelving(alarm.id);
  }

  /** The open alarms of devices decided elsewhere become those stored: the others end here, the stored ones are followed. */
  reload(stored: AlarmRecord[]): void {
    const elsewhere = (alarm: AlarmRecord) => !this.runsTimersOf(alarm.deviceId);
    for (const alarm of this.open.storedList()) if (elsewhere(alarm)) this.follow({ ...alarm, state: 'cleared' });
    for (const alarm of stored) if (elsewhere(alarm)) this.follow(alarm);
  }
}
