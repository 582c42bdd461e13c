import type { Site, SiteCreate, SitePatch } from '@agua/shared';
import { conflict, notFound } from '../../lib/errors';
import type { EventBus } from '../../lib/event-bus';
import { newId } from '../../lib/ids';
import type { AuditAction } from '../audit/audit.repository';
import type { AuditService } from '../audit/audit.service';
import type { UserRecord } from '../users/users.repository';
import { assertParentAllowed, assertValidSite, type SiteValues } from './site-validation';
import { toSite, type SiteRecord, type SitesRepository } from './sites.repository';
import type { SynopticsRepository } from './synoptics.repository';

export interface Actor {
  user: UserRecord;
  ip: string;
}

/** What sites need of the devices (composed in app.ts over the devices feature). */
export interface SiteDevices {
  /** The devices of a site, retired ones too (their history is filtered by site as well). */
  idsOf(siteId: string): string[];
  /** Takes every device out of a site that is going: each one's siteId becomes null, audited `device.site_changed`. */
  detach(siteId: string, actor: Actor): Promise<void>;
}

export interface SitesServiceDeps {
  repo: SitesRepository;
  synoptics: SynopticsRepository;
  devices: SiteDevices;
  audit: AuditService;
  bus: EventBus;
  now?: () => number;
}

/**
 * Sites (docs/sites.md): a tree of places with an optional position on the map, which devices
 * belong to. Read from the database at every request, so a change on any instance counts at once.
 */
export class SitesService {
  private readonly now: () => number;

  constructor(private readonly d: SitesServiceDeps) {
    this.now = d.now ?? Date.now;
  }

  async list(): Promise<Site[]> {
    return (await this.d.repo.list()).map(toSite);
  }

  async get(id: string): Promise<Site> {
    return toSite(await this.find(id));
  }

  async exists(id: string): Promise<boolean> {
    return (await this.d.repo.find(id)) !== null;
  }

  /** The devices of a site, for the filters `?siteId=` (404 SITE_NOT_FOUND for an unknown one). */
  async deviceIdsOf(siteId: string): Promise<string[]> {
    await this.find(siteId);
    return this.d.devices.idsOf(siteId);
  }

  async create(input: SiteCreate, actor: Actor): Promise<Site> {
    const values: SiteValues = { name: input.name.trim(), parentId: input.parentId ?? null, lat: input.lat ?? null, lon: input.lon ?? null, address: input.address ?? null };
    await this.assertAllowed(null, values);
    const now = this.now();
    const record: SiteRecord = { id: newId('site'), ...values, createdAtMs: now, updatedAtMs: now };
    await this.d.repo.insert(record);
    return this.changed(record, 'site.created', actor, { parentId: record.parentId });
  }

  async update(id: string, patch: SitePatch, actor: Actor): Promise<Site> {
    const before = await this.find(id);
    const next: SiteRecord = {
      ...before,
      name: patch.name?.trim() ?? before.name,
      parentId: patch.parentId !== undefined ? patch.parentId : before.parentId,
      lat: patch.lat !== undefined ? patch.lat : before.lat,
      lon: patch.lon !== undefined ? patch.lon : before.lon,
      address: patch.address !== undefined ? patch.address : before.address,
      updatedAtMs: this.now(),
    };
    await this.assertAllowed(id, next);
    const changes = (['name', 'parentId', 'lat', 'lon', 'address'] as const).filter((k) => next[k] !== before[k]);
    if (changes.length === 0) return toSite(before);
    await this.d.repo.replace(next);
    return this.changed(next, 'site.updated', actor, { changes });
  }

  /** Deletes a site without child sites (409 SITE_HAS_CHILDREN): its devices stay, without a site; its synoptic versions go. */
  async remove(id: string, actor: Actor): Promise<void> {
    const before = await this.find(id);
    if ((await this.d.repo.countChildren(id)) > 0) throw conflict('SITE_HAS_CHILDREN');
    await this.d.devices.detach(id, actor);
    await this.d.synoptics.deleteBySite(id);
    if (!(await this.d.repo.delete(id))) throw notFound('SITE_NOT_FOUND');
    this.d.bus.emit('site.removed', { id });
    await this.audit('site.deleted', actor, before, {});
  }

  private async find(id: string): Promise<SiteRecord> {
    const r = await this.d.repo.find(id);
    if (!r) throw notFound('SITE_NOT_FOUND');
    return r;
  }

  /** Values (422), parent and cycles (422), then the name (409: the unique index has the last word). */
  private async assertAllowed(id: string | null, v: SiteValues): Promise<void> {
    assertValidSite(v);
    if (v.parentId !== null) {
      const all = await this.d.repo.list();
      assertParentAllowed(id, v.parentId, new Map(all.map((s) => [s.id, s.parentId])));
    }
    const holder = await this.d.repo.findByName(v.name);
    if (holder && holder.id !== id) throw conflict('SITE_NAME_TAKEN');
  }

  private async changed(r: SiteRecord, action: AuditAction, actor: Actor, details: Record<string, unknown>): Promise<Site> {
    const site = toSite(r);
    this.d.bus.emit('site.updated', site);
    await this.audit(action, actor, r, details);
    return site;
  }

  private async audit(action: AuditAction, actor: Actor, r: SiteRecord, details: Record<string, unknown>): Promise<void> {
    await this.d.audit.record({ action, userId: actor.user.id, username: actor.user.username, target: `site:${r.id}`, result: 'ok', ip: actor.ip, details: { name: r.name, ...details } });
  }
}
