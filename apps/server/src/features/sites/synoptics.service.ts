import { SYNOPTIC_LIMITS, type Synoptic, type SynopticBackground, type SynopticSave, type SynopticSaved, type SynopticVersion } from '@agua/shared';
import { AppError, conflict, notFound } from '../../lib/errors';
import type { EventBus } from '../../lib/event-bus';
import type { AuditService } from '../audit/audit.service';
import type { Actor } from './sites.service';
import type { SitesRepository } from './sites.repository';
import type { SvgSanitizer } from './svg-sanitizer';
import { validSynopticItems, type DeviceTypeOf } from './synoptic-validation';
import { toSynoptic, type SynopticRecord, type SynopticsRepository } from './synoptics.repository';

export interface SynopticsServiceDeps {
  repo: SynopticsRepository;
  sites: SitesRepository;
  /** A device's type; undefined when unknown or retired (a new drawing may not name it). */
  typeOf: DeviceTypeOf;
  /** Cleans SVG backgrounds off the event loop. */
  sanitizer: Pick<SvgSanitizer, 'sanitize'>;
  audit: AuditService;
  bus: EventBus;
  now?: () => number;
}

/** A site's drawing before its first save: the default size on a grid, nothing on it. */
function neverSaved(siteId: string): Synoptic {
  return { siteId, version: 0, width: SYNOPTIC_LIMITS.defaultWidth, height: SYNOPTIC_LIMITS.defaultHeight, background: { kind: 'grid' }, items: [], createdAt: null, createdBy: null };
}

/**
 * The synoptic of a site (docs/sites.md "Synoptic"): every save is a new version on top of the
 * one the editor read, so two engineers editing at once never overwrite each other (the second
 * gets 409 VERSION_CONFLICT). Devices deleted later stay named in stored versions; the web shows
 * them as 'Dispositivo eliminado'.
 */
export class SynopticsService {
  private readonly now: () => number;

  constructor(private readonly d: SynopticsServiceDeps) {
    this.now = d.now ?? Date.now;
  }

  async current(siteId: string): Promise<Synoptic> {
    await this.assertSite(siteId);
    const latest = await this.d.repo.latest(siteId);
    return latest ? toSynoptic(latest) : neverSaved(siteId);
  }

  async versions(siteId: string): Promise<SynopticVersion[]> {
    await this.assertSite(siteId);
    return this.d.repo.versions(siteId);
  }

  async version(siteId: string, version: number): Promise<Synoptic> {
    await this.assertSite(siteId);
    const r = await this.d.repo.get(siteId, version);
    if (!r) throw notFound('SYNOPTIC_VERSION_NOT_FOUND');
    return toSynoptic(r);
  }

  /**
   * Saves version baseVersion + 1. Checks in this order: the site (404), the SVG's size (413),
   * the values (422), the SVG itself (422, then cleaned), the version (409).
   */
  async save(siteId: string, input: SynopticSave, actor: Actor): Promise<SynopticSaved> {
    await this.assertSite(siteId);
    if (input.background.kind === 'svg' && Buffer.byteLength(input.background.svg, 'utf8') > SYNOPTIC_LIMITS.svgMaxBytes) {
      throw new AppError(413, 'SVG_TOO_LARGE', { maxBytes: SYNOPTIC_LIMITS.svgMaxBytes });
    }
    const items = validSynopticItems(input, this.d.typeOf);
    let background: SynopticBackground = { kind: 'grid' };
    let sanitized: string[] = [];
    if (input.background.kind === 'svg') {
      const clean = await this.d.sanitizer.sanitize(input.background.svg);
      background = { kind: 'svg', svg: clean.svg };
      sanitized = clean.removed;
    }
    const latest = await this.d.repo.latest(siteId);
    const current = latest?.version ?? 0;
    if (input.baseVersion !== current) throw conflict('VERSION_CONFLICT', { version: current });
    const u = actor.user;
    const record: SynopticRecord = {
      siteId,
      version: current + 1,
      width: input.width,
      height: input.height,
      background,
      items,
      createdAtMs: this.now(),
      createdBy: { id: u.id, username: u.username, name: u.name },
    };
    // A save on the same version that got in first makes this insert collide: 409 as well.
    await this.d.repo.insert(record);
    this.d.bus.emit('synoptic.updated', { siteId, version: record.version });
    await this.d.audit.record({
      action: 'synoptic.saved',
      userId: u.id,
      username: u.username,
      target: `site:${siteId}`,
      result: 'ok',
      ip: actor.ip,
      details: { version: record.version, items: items.length, background: background.kind, sanitized },
    });
    return { ...toSynoptic(record), sanitized };
  }

  private async assertSite(siteId: string): Promise<void> {
    if (!(await this.d.sites.find(siteId))) throw notFound('SITE_NOT_FOUND');
  }
}
