import { EventEmitter } from 'node:events';
import type { Alarm, AlarmRule, Command, Device, Interlock, OverflowEvent, Reading, ReportRun, Schedule, ScheduleRun, Site } from '@agua/shared';

/**
 * In-process events between features. The live socket turns some of them into frames; the
 * session ones cut sockets at once. With several instances the cluster's event bridge carries
 * them to the other instances (features/cluster/event-bridge.ts).
 */
export interface InternalEvents {
  'reading.created': { deviceId: string; reading: Reading };
  'device.updated': Device;
  'command.updated': Command;
  'device.removed': { id: string };
  /** Sessions ended: one (sessionId), or all of a user's (userId) but exceptSessionId. */
  'sessions.ended': { sessionId?: string; userId?: string; exceptSessionId?: string };
  /** A device's key was rotated, it was disabled or retired: cut its connections. */
  'device.revoked': { deviceId: string };
  /** Every transition of an alarm (docs/alarms.md). */
  'alarm.updated': Alarm;
  /** An overflow event opened, grew, closed or was annotated (docs/water.md "Overflow events"). */
  'overflow.updated': OverflowEvent;
  /** A report run was queued, started, finished or failed (docs/reports.md). */
  'report_run.updated': ReportRun;
  /** An interlock was created or changed, its bypass begun or ended (docs/control.md). */
  'interlock.updated': Interlock;
  'interlock.removed': { id: string };
  /** A schedule created or changed, removed, or one of its runs stored or changed (docs/control.md). */
  'schedule.updated': Schedule;
  'schedule.removed': { id: string };
  'schedule.run': ScheduleRun;
  /** A site created or changed, or removed; a new version of a site's synoptic (docs/sites.md). */
  'site.updated': Site;
  'site.removed': { id: string };
  'synoptic.updated': { siteId: string; version: number };
  /** A rule was edited (the alarm engine evaluates the device again, or suppresses the rule's alarm). */
  'alarm_rule.updated': { deviceId: string; rule: AlarmRule };
  /** A device's stored record was created or changed here (other instances load it again). */
  'device.record_changed': { id: string };
  /** A level sensor's geometry has a new version (other instances load it again). */
  'device.geometry_changed': { deviceId: string };
  /** Every live socket gets a fresh snapshot (the instances lost touch with each other for a while). */
  'live.resync': Record<string, never>;
}

export class EventBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  emit<K extends keyof InternalEvents>(type: K, data: InternalEvents[K]): void {
    this.emitter.emit(type, data);
  }

  on<K extends keyof InternalEvents>(type: K, listener: (data: InternalEvents[K]) => void): () => void {
    this.emitter.on(type, listener);
    return () => this.emitter.off(type, listener);
  }
}
