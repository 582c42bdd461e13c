import type { Kysely } from 'kysely';
import { seedDemoGeometries } from '../../demo/seed';
import type { Database } from '../../storage/schema';
import type { AuditService } from '../audit/audit.service';
import type { DevicesService } from '../devices/devices.service';
import { WaterAnalyticsService, type ReadingBatches } from './analytics.service';
import { GeometryRepository } from './geometry.repository';
import { GeometryService } from './geometry.service';

export interface WaterDeps {
  db: Kysely<Database>;
  /** Demo mode: the demo level sensors get their tanks. */
  demo: boolean;
  devices: DevicesService;
  audit: AuditService;
  /** Stored readings in batches (the history feature's), for the figures per period. */
  readings: ReadingBatches;
}

export interface WaterModule {
  geometry: GeometryService;
  analytics: WaterAnalyticsService;
  repo: GeometryRepository;
}

/** Water figures of level sensors: their geometry and calibration, versioned (docs/water.md). */
export async function createWater({ db, demo, devices, audit, readings }: WaterDeps): Promise<WaterModule> {
  const repo = new GeometryRepository(db);
  if (demo) await seedDemoGeometries(repo, (id) => devices.get(id)?.retiredAtMs === null, Date.now());
  const deviceOf = (id: string) => devices.get(id);
  const geometry = new GeometryService(repo, deviceOf, audit);
  return { repo, geometry, analytics: new WaterAnalyticsService(geometry, readings, deviceOf) };
}
