import { useMutation, useQuery } from '@tanstack/react-query';
import type { Device, Site, SiteCreate, SitePatch, Synoptic, SynopticSave, SynopticSaved, SynopticVersion } from '@agua/shared';
import { api } from '@/lib/api-client';
import { replaceDevice } from '@/lib/device-cache';
import { queryClient } from '@/lib/query-client';
import { byName, siteKeys } from '@/lib/site-cache';

/** Every site (GET /sites): fetched once, then kept current by the live socket's site frames. */
export function useSites(enabled = true) {
  return useQuery({
    queryKey: siteKeys.sites,
    queryFn: async ({ signal }) => (await api.get<Site[]>('/sites', undefined, signal)).slice().sort(byName),
    staleTime: 60_000,
    enabled,
  });
}

/** A site's newest synoptic (GET /sites/{id}/synoptic); a synoptic.updated frame fetches it again. */
export function useSynoptic(siteId: string) {
  return useQuery({
    queryKey: siteKeys.synoptic(siteId),
    queryFn: ({ signal }) => api.get<Synoptic>(`/sites/${encodeURIComponent(siteId)}/synoptic`, undefined, signal),
    staleTime: Infinity,
  });
}

/** Every saved version of a site's drawing, newest first (GET /sites/{id}/synoptic/versions). */
export function useSynopticVersions(siteId: string, enabled = true) {
  return useQuery({
    queryKey: siteKeys.versions(siteId),
    queryFn: ({ signal }) => api.get<SynopticVersion[]>(`/sites/${encodeURIComponent(siteId)}/synoptic/versions`, undefined, signal),
    staleTime: 60_000,
    enabled,
  });
}

const versionQuery = (siteId: string, version: number) => ({
  queryKey: siteKeys.version(siteId, version),
  queryFn: ({ signal }: { signal: AbortSignal }) => api.get<Synoptic>(`/sites/${encodeURIComponent(siteId)}/synoptic/versions/${version}`, undefined, signal),
  // A saved version never changes.
  staleTime: Infinity,
});

/** One saved version (GET /sites/{id}/synoptic/versions/{n}); none asked while `version` is null. */
export function useSynopticVersion(siteId: string, version: number | null) {
  return useQuery({ ...versionQuery(siteId, version ?? 0), enabled: version !== null });
}

/** One saved version, from the cache when it was read already. */
export function fetchSynopticVersion(siteId: string, version: number): Promise<Synoptic> {
  return queryClient.fetchQuery(versionQuery(siteId, version));
}

function storeSite(site: Site): void {
  queryClient.setQueryData<Site[]>(siteKeys.sites, (list) => (list ? [...list.filter((s) => s.id !== site.id), site].sort(byName) : list));
}

export function useCreateSite() {
  return useMutation({ mutationFn: (body: SiteCreate) => api.post<Site>('/sites', body), onSuccess: storeSite });
}

export function useUpdateSite(siteId: string) {
  return useMutation({ mutationFn: (body: SitePatch) => api.patch<Site>(`/sites/${encodeURIComponent(siteId)}`, body), onSuccess: storeSite });
}

/** DELETE /sites/{id}: its devices stay (without a site), its drawing's versions go; 409 SITE_HAS_CHILDREN while sites are inside it. */
export function useDeleteSite(siteId: string) {
  return useMutation({
    mutationFn: () => api.delete<void>(`/sites/${encodeURIComponent(siteId)}`),
    onSuccess: () => {
      queryClient.setQueryData<Site[]>(siteKeys.sites, (list) => list?.filter((s) => s.id !== siteId));
      queryClient.removeQueries({ queryKey: siteKeys.synoptic(siteId) });
    },
  });
}

/** PUT /sites/{id}/synoptic: a new version on top of `baseVersion` (409 VERSION_CONFLICT otherwise). */
export function useSaveSynoptic(siteId: string) {
  return useMutation({
    mutationFn: (body: SynopticSave) => api.put<SynopticSaved>(`/sites/${encodeURIComponent(siteId)}/synoptic`, body),
    onSuccess: (saved) => {
      const { sanitized: _sanitized, ...synoptic } = saved;
      queryClient.setQueryData<Synoptic>(siteKeys.synoptic(siteId), synoptic);
      void queryClient.invalidateQueries({ queryKey: siteKeys.versions(siteId), exact: true });
    },
  });
}

/** Moves a device into a site, or out of every site (null). */
export function useAssignDeviceSite() {
  return useMutation({
    mutationFn: ({ deviceId, siteId }: { deviceId: string; siteId: string | null }) => api.patch<Device>(`/devices/${encodeURIComponent(deviceId)}`, { siteId }),
    onSuccess: (device) => {
      if (device && typeof device === 'object' && 'id' in device) replaceDevice(device);
    },
  });
}
