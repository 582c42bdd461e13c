import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { EventBus } from '../../lib/event-bus';
import type { Database } from '../../storage/schema';
import type { AuditService } from '../audit/audit.service';
import type { DevicesService } from '../devices/devices.service';
import type { ReadingBatches } from '../water/reading-points';
import type { GeometryService } from '../water/geometry.service';
import { OverflowEventsRepository } from './overflow-events.repository';
import { OverflowEventsService, toOverflowEvent } from './overflow-events.service';
import { OverflowRecorder } from './overflow-recorder';

export interface OverflowsDeps {
  db: Kysely<Database>;
  geometry: GeometryService;
  readings: ReadingBatches;
  devices: DevicesService;
  audit: AuditService;
  /** This instance's events: `overflow.updated` goes out on it. */
  bus: EventBus;
  /** One instance: readings are judged as they are committed (see OverflowRecorderDeps.inline). */
  inline: boolean;
  log: FastifyBaseLogger;
}

export interface OverflowsModule {
  service: OverflowEventsService;
  /** Keeps the stored events from the readings this instance commits (the telemetry's `stored` hook). */
  recorder: OverflowRecorder;
}

/** Overflow events of level sensors with a crest (docs/water.md "Overflow events"). */
export function createOverflows(d: OverflowsDeps): OverflowsModule {
  const repo = new OverflowEventsRepository(d.db);
  const announce = (event: Parameters<typeof toOverflowEvent>[0]) => d.bus.emit('overflow.updated', toOverflowEvent(event));
  const recorder = new OverflowRecorder({
    repo,
    geometryAt: (id, tsMs) => d.geometry.at(id, tsMs),
    geometryNow: (id) => d.geometry.current(id),
    everHadCrest: (id) => d.geometry.everHadCrest(id),
    readings: d.readings,
    levelSensors: () => d.devices.listRecords().filter((r) => r.type === 'level_sensor' && r.retiredAtMs === null).map((r) => r.id),
    changed: announce,
    inline: d.inline,
    log: d.log.child({ component: 'overflows' }),
  });
  d.bus.on('device.removed', ({ id }) => recorder.forget(id));
  return { service: new OverflowEventsService(repo, d.audit, announce), recorder };
}
