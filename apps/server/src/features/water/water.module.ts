import type { Kysely } from 'kysely';
import { seedDemoGeometries } from '../../demo/seed';
import type { EventBus } from '../../lib/event-bus';
import type { Database } from '../../storage/schema';
import type { AuditService } from '../audit/audit.service';
import { offlineAfterS } from '../devices/device.mapper';
import type { DevicesService } from '../devices/devices.service';
import { WaterAnalyticsService, type ReadingBatches } from './analytics.service';
import { DailyTotalsRepository } from './daily-totals.repository';
import { DailyTotalsService, NO_OVERFLOW_EVENTS, type OverflowEventCounts } from './daily.service';
import { GeometryRepository } from './geometry.repository';
import { GeometryService } from './geometry.service';
import { LiveWaterFigures } from './live-figures';

export interface WaterDeps {
  db: Kysely<Database>;
  /** Demo mode: the demo level sensors get their tanks. */
  demo: boolean;
  devices: DevicesService;
  audit: AuditService;
  /** This instance's events. */
  bus: EventBus;
  /** The readings to follow: this instance's, and with several instances the others' too. */
  feed: EventBus;
  defaultOfflineAfterS: number;
  /** Stored readings in batches (the history feature's), for the figures per period. */
  readings: ReadingBatches;
  /** Overflow events started per day (the events feature's); none until it exists. */
  overflowEvents?: OverflowEventCounts;
}

export interface WaterModule {
  geometry: GeometryService;
  analytics: WaterAnalyticsService;
  figures: LiveWaterFigures;
  /** Daily totals: the route's, and the job list's recomputation. */
  daily: DailyTotalsService;
  repo: GeometryRepository;
}

/** How far back the live figures look at start: the longest flow window. */
const PRELOAD_MS = 3_600_000;

/**
 * Water figures of level sensors (docs/water.md): their geometry and calibration, versioned; the
 * live figures every Device carries; the figures per period and per local day (stored).
 */
export async function createWater(d: WaterDeps): Promise<WaterModule> {
  const repo = new GeometryRepository(d.db);
  if (d.demo) await seedDemoGeometries(repo, (id) => d.devices.get(id)?.retiredAtMs === null, Date.now());
  const deviceOf = (id: string) => d.devices.get(id);
  const geometry = new GeometryService(repo, deviceOf, d.audit, (deviceId) => {
    d.bus.emit('device.geometry_changed', { deviceId });
    const device = d.devices.getApi(deviceId);
    if (device) d.bus.emit('device.updated', device);
  });
  await geometry.load();
  const figures = new LiveWaterFigures({ deviceOf, geometryOf: (id) => geometry.current(id), offlineAfterS: (device) => offlineAfterS(device, d.defaultOfflineAfterS) });
  await preload(figures, d);
  d.feed.on('reading.created', ({ deviceId, reading }) => figures.add(deviceId, reading));
  d.bus.on('device.geometry_changed', ({ deviceId }) => void geometry.reload(deviceId));
  d.bus.on('device.removed', ({ id }) => figures.forget(id));
  d.devices.useWaterFigures((deviceId) => figures.analyticsOf(deviceId));
  const daily = new DailyTotalsService({
    geometry,
    readings: d.readings,
    repo: new DailyTotalsRepository(d.db),
    deviceOf,
    devices: () => d.devices.listRecords(),
    overflowEvents: d.overflowEvents ?? NO_OVERFLOW_EVENTS,
  });
  return { repo, geometry, figures, daily, analytics: new WaterAnalyticsService(geometry, d.readings, deviceOf) };
}

/** The last hour of every level sensor's readings, so that flows and forecasts hold from the start. */
async function preload(figures: LiveWaterFigures, d: WaterDeps): Promise<void> {
  const toMs = Date.now() + 1;
  for (const device of d.devices.listRecords()) {
    if (device.type !== 'level_sensor' || device.retiredAtMs !== null) continue;
    for await (const rows of d.readings(device.id, { fromMs: toMs - PRELOAD_MS, toMs })) figures.addRows(device.id, rows);
  }
}
