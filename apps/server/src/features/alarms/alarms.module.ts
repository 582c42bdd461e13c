import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { ShelveCriticalAccess } from '@agua/shared';
import type { EventBus } from '../../lib/event-bus';
import type { Placement } from '../../lib/placement';
import type { Database } from '../../storage/schema';
import type { AuditService } from '../audit/audit.service';
import type { DevicesService } from '../devices/devices.service';
import { AlarmEngine, type AlarmChangeStore, type AlarmRouter } from './alarm-engine';
import { AlarmRulesRepository } from './alarm-rules.repository';
import { AlarmRulesService } from './alarm-rules.service';
import { AlarmsRepository, type AlarmChange } from './alarms.repository';
import { AlarmsService } from './alarms.service';

export interface AlarmsDeps {
  db: Kysely<Database>;
  /** Where alarm changes are written: the ingest side's writer, so one connection writes (ADR 009). */
  writer: { writeAlarms(changes: AlarmChange[]): Promise<void> };
  devices: DevicesService;
  audit: AuditService;
  bus: EventBus;
  placement: Placement;
  /** Several instances: acts on alarms of devices held elsewhere go there; null when alone. */
  router: AlarmRouter | null;
  log: FastifyBaseLogger;
  /** Who may shelve a Crítica alarm (ALARM_SHELVE_CRITICAL). */
  shelveCritical: ShelveCriticalAccess;
}

export interface AlarmsModule {
  rules: AlarmRulesService;
  engine: AlarmEngine;
  /** What people do with alarms (list, acknowledge, shelve, export). */
  service: AlarmsService;
}

/** The alarm rules (loaded for every device in service) and the engine that applies them. */
export async function createAlarms(d: AlarmsDeps): Promise<AlarmsModule> {
  const rules = new AlarmRulesService(new AlarmRulesRepository(d.db), d.audit, d.bus);
  await rules.load(d.devices.listRecords().filter((device) => device.retiredAtMs === null));
  const repo = new AlarmsRepository(d.db);
  const store: AlarmChangeStore = { writeAll: (changes) => d.writer.writeAlarms(changes) };
  const engine = new AlarmEngine(repo, store, rules, d.devices, d.bus, d.log, d.placement, d.router);
  return { rules, engine, service: new AlarmsService(engine, repo, d.audit, d.shelveCritical) };
}
