import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { ShelveCriticalAccess } from '@agua/shared';
import type { EventBus } from '../../lib/event-bus';
import type { Placement } from '../../lib/placement';
import type { IngestStore } from '../../storage/ingest/ingest-store';
import type { AlarmChangeRow, ReadingRow } from '../../storage/ingest/rows';
import type { Database } from '../../storage/schema';
import type { AuditService } from '../audit/audit.service';
import type { DevicesService } from '../devices/devices.service';
import { toAlarmChangeRows } from './alarm-change-rows';
import { AlarmEngine, type AlarmChangeStore, type AlarmRouter, type WaterAlarmSource } from './alarm-engine';
import { AlarmRulesRepository } from './alarm-rules.repository';
import { AlarmRulesService } from './alarm-rules.service';
import { AlarmsRepository } from './alarms.repository';
import { AlarmsService } from './alarms.service';

export interface AlarmsDeps {
  db: Kysely<Database>;
  /** Where alarm changes are written: the ingest store, so one connection writes (docs/decisions/014-ingest-store.md). */
  writer: Pick<IngestStore, 'writeAlarms'>;
  devices: DevicesService;
  audit: AuditService;
  bus: EventBus;
  placement: Placement;
  /** Several instances: acts on alarms of devices held elsewhere go there; null when alone. */
  router: AlarmRouter | null;
  log: FastifyBaseLogger;
  /** Who may shelve a Crítica alarm (ALARM_SHELVE_CRITICAL). */
  shelveCritical: ShelveCriticalAccess;
  /**
   * A level sensor's water (docs/water.md "Alarms"): its crest (the water kinds' defaults), its
   * time to overflow and open spills — the water feature's, passed in so that alarms import none
   * of it.
   */
  water?: WaterAlarmSource & { hasCrest(deviceId: string): boolean };
}

/** The alarm changes a commit of readings causes, staged before it and stored in its transaction (ADR 009). */
export interface ReadingAlarmRows {
  stageReadings(items: ReadingRow[]): { changes: AlarmChangeRow[]; committed: () => void; failed: (err: unknown) => void };
}

export interface AlarmsModule {
  rules: AlarmRulesService;
  engine: AlarmEngine;
  /** The engine as a commit of readings uses it: the changes they cause, as the ingest store's rows. */
  readingAlarms: ReadingAlarmRows;
  /** What people do with alarms (list, acknowledge, shelve, export). */
  service: AlarmsService;
}

/** The alarm rules (loaded for every device in service) and the engine that applies them. */
export async function createAlarms(d: AlarmsDeps): Promise<AlarmsModule> {
  const rules = new AlarmRulesService(new AlarmRulesRepository(d.db), d.audit, d.bus, d.water ? (id) => d.water!.hasCrest(id) : undefined);
  await rules.load(d.devices.listRecords().filter((device) => device.retiredAtMs === null));
  const repo = new AlarmsRepository(d.db);
  const store: AlarmChangeStore = { writeAll: (changes) => d.writer.writeAlarms(toAlarmChangeRows(changes)) };
  const engine = new AlarmEngine(repo, store, rules, d.devices, d.bus, d.log, d.placement, d.router, d.water);
  const readingAlarms: ReadingAlarmRows = {
    stageReadings: (items) => {
      const staged = engine.stageReadings(items);
      return staged.changes.length === 0 ? { ...staged, changes: [] } : { ...staged, changes: toAlarmChangeRows(staged.changes) };
    },
  };
  return { rules, engine, readingAlarms, service: new AlarmsService(engine, repo, d.audit, d.shelveCritical) };
}
