import type { Kysely } from 'kysely';
import type { Alarm } from '@agua/shared';
import type { EventBus } from '../../lib/event-bus';
import type { Database } from '../../storage/schema';
import type { AuditService } from '../audit/audit.service';
import type { DevicesService } from '../devices/devices.service';
import { conditionFacts } from './interlock-facts';
import { InterlocksRepository } from './interlocks.repository';
import { InterlocksService } from './interlocks.service';

export interface InterlocksDeps {
  db: Kysely<Database>;
  devices: DevicesService;
  /** The open alarms (the alarm conditions). */
  openAlarms: () => Alarm[];
  audit: AuditService;
  bus: EventBus;
  /** Every instance's events (the bus when alone). */
  feed: EventBus;
  defaultOfflineAfterS: number;
}

export interface InterlocksModule {
  service: InterlocksService;
}

/** Interlocks (docs/control.md): built after the devices and alarms they judge, before the commands they guard. */
export function createInterlocks(d: InterlocksDeps): InterlocksModule {
  const live = (id: string) => {
    const r = d.devices.get(id);
    return r && r.retiredAtMs === null ? r : undefined;
  };
  const service = new InterlocksService({
    repo: new InterlocksRepository(d.db),
    audit: d.audit,
    bus: d.bus,
    feed: d.feed,
    typeOf: (id) => live(id)?.type,
    knows: (id) => d.devices.get(id) !== undefined,
    facts: conditionFacts(d.devices, d.openAlarms, d.defaultOfflineAfterS),
  });
  return { service };
}
