import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Command } from '@agua/shared';
import type { Config } from '../../config/env';
import { seedDemo, type DemoSiteStore } from '../../demo/seed';
import type { EventBus } from '../../lib/event-bus';
import type { Placement } from '../../lib/placement';
import { oneAtATime } from '../../storage/serialize';
import type { SettingsRepository } from '../../storage/settings.repository';
import type { IngestStore } from '../../storage/ingest/ingest-store';
import type { Storage } from '../../storage/storage';
import type { AuditService } from '../audit/audit.service';
import type { UsersRepository } from '../users/users.repository';
import { DeviceAdminService, type DeviceAccess, type DeviceLifecycle, type DeviceSites } from './device-admin.service';
import { DevicesRepository } from './devices.repository';
import { DevicesService } from './devices.service';

export interface DevicesDeps {
  config: Pick<Config, 'demo' | 'deviceKeyPepper' | 'deviceOfflineAfterS'>;
  storage: Storage;
  settings: SettingsRepository;
  /** The demo seed makes the demo accounts beside the demo devices. */
  users: UsersRepository;
  /** The demo seed's sites go there (the sites' store; the sites feature comes after the devices). */
  demoSites: DemoSiteStore;
  bus: EventBus;
  /** The one writer of the state readings also move (gate state, lastSeen): the ingest store. */
  ingest: Pick<IngestStore, 'writeGateState' | 'writeLastSeen'>;
  placement: Placement;
  /** A device's last command, shown with it (commands are the commands feature's, which depends on this one). */
  lastCommand: (commandId: string) => Promise<Command | null>;
  log: FastifyBaseLogger;
}

export interface DevicesModule {
  repo: DevicesRepository;
  /** Every device in memory: the one writer of device state. */
  service: DevicesService;
  /** Mixed into every stored device key's hash. */
  keyPepper: string;
}

/** The devices, loaded (and on a demo's first start, seeded). */
export async function createDevices(d: DevicesDeps): Promise<DevicesModule> {
  const { config, storage } = d;
  const repo = new DevicesRepository(storage.db);
  const keyPepper = config.deviceKeyPepper ?? (await d.settings.getOrCreate('device_key_pepper', () => randomBytes(32).toString('hex')));
  // Instances starting at once on one PostgreSQL: the first seeds, the others find it done.
  if (config.demo && (await oneAtATime(storage, 'agua.demo-seed', () => seedDemo(d.users, repo, d.demoSites, keyPepper)))) d.log.info('demo data seeded');
  const service = new DevicesService(repo, d.ingest, d.bus, { defaultOfflineAfterS: config.deviceOfflineAfterS, keyPepper, placement: d.placement });
  await service.load(d.lastCommand);
  return { repo, service, keyPepper };
}

export interface DeviceAdminDeps {
  devices: DevicesModule;
  bus: EventBus;
  audit: AuditService;
  /** What other features keep about a device, told of its creation, new settings and purge. */
  lifecycle: DeviceLifecycle;
  /** Whoever else checks device keys (an external broker's accounts); none with the embedded broker. */
  access: DeviceAccess | undefined;
  /** Whether a site exists (a device's siteId must name one). */
  sites: DeviceSites;
}

/** Creating, editing, re-keying, retiring and purging devices (admin). */
export function createDeviceAdmin({ devices, bus, audit, lifecycle, access, sites }: DeviceAdminDeps): DeviceAdminService {
  return new DeviceAdminService(devices.repo, devices.service, bus, audit, devices.keyPepper, lifecycle, sites, access);
}
