import type { Site } from '@agua/shared';
import { queryClient } from './query-client';

/**
 * The caches the site frames keep (docs/sites.md): the list of sites (GET /sites) and each site's
 * synoptic drawing (GET /sites/{id}/synoptic). Their keys live here, beside the writer, because the
 * live socket (lib) writes into the same entries the sites feature reads.
 */
export const siteKeys = {
  sites: ['sites'] as const,
  synoptics: ['synoptic'] as const,
  synoptic: (siteId: string) => ['synoptic', siteId] as const,
  /** Under the site's synoptic key, so that a newer drawing (or the site's removal) takes them along. */
  versions: (siteId: string) => ['synoptic', siteId, 'versions'] as const,
  version: (siteId: string, version: number) => ['synoptic', siteId, 'versions', version] as const,
};

export type SiteFrame = { type: 'site.updated'; data: Site } | { type: 'site.removed'; data: { id: string } } | { type: 'synoptic.updated'; data: { siteId: string; version: number } };

/** Sites by name, as the server lists them. */
export function byName(a: Site, b: Site): number {
  return a.name.localeCompare(b.name, 'es') || a.id.localeCompare(b.id);
}

/** The list after the frames of a batch: a site put in or replaced (in name order), or taken out. */
export function applySiteFrames(list: readonly Site[], frames: readonly SiteFrame[]): Site[] {
  let next = [...list];
  for (const frame of frames) {
    if (frame.type === 'site.updated') next = [...next.filter((s) => s.id !== frame.data.id), frame.data].sort(byName);
    else if (frame.type === 'site.removed') next = next.filter((s) => s.id !== frame.data.id);
  }
  return next;
}

/** Writes a batch of site frames into the caches; a newer synoptic than the one shown is fetched again. */
export function storeSiteFrames(frames: readonly SiteFrame[]): void {
  queryClient.setQueryData<Site[]>(siteKeys.sites, (list) => (list ? applySiteFrames(list, frames) : list));
  for (const frame of frames) {
    if (frame.type === 'site.removed') queryClient.removeQueries({ queryKey: siteKeys.synoptic(frame.data.id) });
    if (frame.type !== 'synoptic.updated') continue;
    const shown = queryClient.getQueryData<{ version: number }>(siteKeys.synoptic(frame.data.siteId));
    if (!shown || shown.version < frame.data.version) void queryClient.invalidateQueries({ queryKey: siteKeys.synoptic(frame.data.siteId) });
  }
}
