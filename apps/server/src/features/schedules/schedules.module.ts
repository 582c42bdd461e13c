import type { Kysely } from 'kysely';
import type { InterlockVerdict } from '@agua/shared';
import type { EventBus } from '../../lib/event-bus';
import type { Placement } from '../../lib/placement';
import type { Database } from '../../storage/schema';
import type { AlarmEngine } from '../alarms/alarm-engine';
import type { AuditService } from '../audit/audit.service';
import type { CommandsService } from '../commands/commands.service';
import type { DevicesService } from '../devices/devices.service';
import { ScheduleRunner } from './schedule-runner';
import { SchedulesRepository } from './schedules.repository';
import { SchedulesService } from './schedules.service';

export interface SchedulesDeps {
  db: Kysely<Database>;
  devices: DevicesService;
  commands: CommandsService;
  alarmEngine: AlarmEngine;
  verdict(deviceId: string, command: string): Promise<InterlockVerdict>;
  audit: AuditService;
  bus: EventBus;
  placement: Placement;
}

export interface SchedulesModule {
  service: SchedulesService;
  runner: ScheduleRunner;
}

/** Gate schedules (docs/control.md "Schedules"): after the commands they issue through. */
export function createSchedules(d: SchedulesDeps): SchedulesModule {
  const repo = new SchedulesRepository(d.db);
  const service = new SchedulesService({
    repo,
    audit: d.audit,
    bus: d.bus,
    typeOf: (id) => {
      const r = d.devices.get(id);
      return r && r.retiredAtMs === null ? r.type : undefined;
    },
    knows: (id) => d.devices.get(id) !== undefined,
    verdict: d.verdict,
    reachable: (id) => d.devices.get(id)?.enabled === true && d.devices.isOnline(id),
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  });
  const runner = new ScheduleRunner({
    repo,
    bus: d.bus,
    audit: d.audit,
    placement: d.placement,
    issue: (deviceId, command, scheduleId, claim) => d.commands.issueForSchedule(deviceId, command, scheduleId, claim),
    raiseSkipped: (deviceId, schedule, message) => d.alarmEngine.raiseScheduleSkipped(deviceId, schedule, message),
    // Its next run moved on: screens showing it hear so.
    ran: (schedule) => d.bus.emit('schedule.updated', service.toSchedule(schedule)),
  });
  return { service, runner };
}
