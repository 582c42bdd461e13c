import type { Kysely } from 'kysely';
import type { Geometry, ReadingStatus } from '@agua/shared';
import { seedDemoGeometries } from '../../demo/seed';
import type { EventBus } from '../../lib/event-bus';
import type { Database } from '../../storage/schema';
import type { AuditService } from '../audit/audit.service';
import { offlineAfterS } from '../devices/device.mapper';
import type { DevicesService } from '../devices/devices.service';
import { WaterAnalyticsService } from './analytics.service';
import { DailyTotalsRepository } from './daily-totals.repository';
import { DailyTotalsService, type OverflowEventCounts } from './daily.service';
import { GeometryRepository } from './geometry.repository';
import { GeometryService } from './geometry.service';
import { LiveWaterFigures } from './live-figures';
import { LiveSpills } from './live-spills';
import type { ReadingBatches } from './reading-points';
import { WaterHoursRepository } from './water-hours.repository';
import { WaterHoursService, type ReadingsIndex } from './water-hours.service';

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
  /** The readings' oldest time and counts (the history feature's), for the stored per-hour figures. */
  readingsIndex: ReadingsIndex;
  /** Overflow events started per day (the overflows feature's). */
  overflowEvents: OverflowEventCounts;
}

/**
 * What the alarms read of a level sensor's water (docs/water.md "Alarms"), handed to them at
 * composition: its crest, its time to overflow, its open spill, and when any of these may have
 * changed (a stored reading, a new geometry).
 */
export interface WaterAlarmFeed {
  hasCrest(deviceId: string): boolean;
  timeToOverflowS(deviceId: string): number | null;
  openSpill(deviceId: string): { startedAtMs: number; peakLevelM: number; crestM: number } | null;
  onChange(listener: (deviceId: string) => void): () => void;
}

export interface WaterModule {
  geometry: GeometryService;
  analytics: WaterAnalyticsService;
  figures: LiveWaterFigures;
  /** Each level sensor's spills as its readings come (the alarms follow them; the stored overflow events will). */
  spills: LiveSpills;
  /** A committed message's or batch's readings: the live figures and spills take them. */
  readingsStored(deviceId: string, rows: ReadonlyArray<{ tsMs: number; valueNum: number | null; status: ReadingStatus }>): void;
  /** The alarms' view of the water. */
  alarmFeed: WaterAlarmFeed;
  /**
   * Runs after a new geometry version is stored here (awaited before the PUT answers; not for a
   * version stored by another instance): the alarm rules follow a crest that came or went.
   */
  onGeometryStored(listener: (deviceId: string, geometry: Geometry) => Promise<void>): void;
  /** Daily totals: the route's, and the job list's recomputation. */
  daily: DailyTotalsService;
  /** Stored per-hour figures: the job list's recomputation, and what analytics read. */
  hours: WaterHoursService;
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
  const storedListeners: Array<(deviceId: string, geometry: Geometry) => Promise<void>> = [];
  const changeListeners = new Set<(deviceId: string) => void>();
  const changed = (deviceId: string) => {
    for (const listener of changeListeners) listener(deviceId);
  };
  const geometry = new GeometryService(repo, deviceOf, d.audit, async (deviceId) => {
    for (const listener of storedListeners) await listener(deviceId, geometry.current(deviceId));
    d.bus.emit('device.geometry_changed', { deviceId });
    const device = d.devices.getApi(deviceId);
    if (device) d.bus.emit('device.updated', device);
  });
  await geometry.load();
  const figures = new LiveWaterFigures({ deviceOf, geometryOf: (id) => geometry.current(id), offlineAfterS: (device) => offlineAfterS(device, d.defaultOfflineAfterS) });
  const spills = new LiveSpills((id, tsMs) => geometry.at(id, tsMs));
  const hours = new WaterHoursService({
    geometry,
    readings: d.readings,
    index: d.readingsIndex,
    repo: new WaterHoursRepository(d.db),
    devices: () => d.devices.listRecords(),
  });
  const readingsStored: WaterModule['readingsStored'] = (deviceId, rows) => {
    hours.readingsStored(deviceId, rows);
    const added = figures.addRows(deviceId, rows);
    if (spills.addRows(deviceId, rows) || added) changed(deviceId);
  };
  await preload(readingsStored, d);
  d.feed.on('reading.created', ({ deviceId, reading }) => {
    const added = figures.add(deviceId, reading);
    const judged = typeof reading.value === 'number' && spills.add(deviceId, Date.parse(reading.ts), reading.value, reading.status === 'fault');
    if (added || judged) changed(deviceId);
  });
  // Here or on another instance: the figures follow the new version once it is read.
  d.bus.on('device.geometry_changed', ({ deviceId }) => void geometry.reload(deviceId).then(() => changed(deviceId), () => undefined));
  d.bus.on('device.removed', ({ id }) => {
    figures.forget(id);
    spills.forget(id);
  });
  d.devices.useWaterFigures((deviceId) => figures.analyticsOf(deviceId));
  const daily = new DailyTotalsService({
    geometry,
    readings: d.readings,
    repo: new DailyTotalsRepository(d.db),
    deviceOf,
    devices: () => d.devices.listRecords(),
    overflowEvents: d.overflowEvents,
  });
  const alarmFeed: WaterAlarmFeed = {
    hasCrest: (deviceId) => geometry.current(deviceId).crestLevelM !== null,
    timeToOverflowS: (deviceId) => figures.analyticsOf(deviceId)?.timeToOverflowS ?? null,
    openSpill: (deviceId) => {
      const open = spills.openOf(deviceId);
      return open ? { startedAtMs: open.spill.startedAtMs, peakLevelM: open.spill.peakLevelM, crestM: open.crestM } : null;
    },
    onChange: (listener) => {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },
  };
  return {
    repo,
    geometry,
    figures,
    spills,
    readingsStored,
    alarmFeed,
    onGeometryStored: (listener) => storedListeners.push(listener),
    daily,
    hours,
    analytics: new WaterAnalyticsService(d.readings, deviceOf, hours),
  };
}

/**
 * The last hour of every level sensor's readings, so that flows, forecasts and a spill under way
 * hold from the start (a spill open for longer starts, here, at the hour's first reading).
 */
async function preload(readingsStored: WaterModule['readingsStored'], d: WaterDeps): Promise<void> {
  const toMs = Date.now() + 1;
  for (const device of d.devices.listRecords()) {
    if (device.type !== 'level_sensor' || device.retiredAtMs !== null) continue;
    for await (const rows of d.readings(device.id, { fromMs: toMs - PRELOAD_MS, toMs })) readingsStored(device.id, rows);
  }
}
