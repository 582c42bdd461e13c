import type { Kysely } from 'kysely';
import type { DeviceType } from '@agua/shared';
import type { EventBus } from '../../lib/event-bus';
import type { Database } from '../../storage/schema';
import type { AuditService } from '../audit/audit.service';
import type { SitesRepository } from './sites.repository';
import { SitesService, type SiteDevices } from './sites.service';
import { SynopticsRepository } from './synoptics.repository';
import { SynopticsService } from './synoptics.service';
import { SvgSanitizer } from './svg-sanitizer';

export interface SitesDeps {
  db: Kysely<Database>;
  /** The sites' store, made before the devices (the demo seed writes its sites there). */
  repo: SitesRepository;
  devices: SiteDevices;
  /** A device's type; undefined when unknown or retired. */
  typeOf: (deviceId: string) => DeviceType | undefined;
  audit: AuditService;
  bus: EventBus;
}

export interface SitesModule {
  sites: SitesService;
  synoptics: SynopticsService;
  /** Its thread ends with the server. */
  sanitizer: SvgSanitizer;
}

/** Sites and their synoptics (docs/sites.md): built after the devices, whose site they keep. */
export function createSites(d: SitesDeps): SitesModule {
  const synopticsRepo = new SynopticsRepository(d.db);
  const sites = new SitesService({ repo: d.repo, synoptics: synopticsRepo, devices: d.devices, audit: d.audit, bus: d.bus });
  const sanitizer = new SvgSanitizer();
  const synoptics = new SynopticsService({ repo: synopticsRepo, sites: d.repo, typeOf: d.typeOf, sanitizer, audit: d.audit, bus: d.bus });
  return { sites, synoptics, sanitizer };
}
