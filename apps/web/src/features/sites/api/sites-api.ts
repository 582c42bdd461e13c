import { useMutation, useQuery } from '@tanstack/react-query';
import type { Device, Site, SiteCreate, SitePatch, Synoptic, SynopticSave, SynopticSaved } from '@agua/shared';
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

function storeSite(site: Site): void {
  queryClient.setQueryData<Site[]>(siteKeys.sites, (list) => (list ? [...list.filter((s) => s.id !== site.id), site].sort(byName) : list));
}

export function useCreateSite() {
  return useMutation({ mutationFn: (body: SiteCreate) => api.post<Site>('/sites', body), onSuccess: storeSite });
}

export function useUpdateSite(siteId: string) {
  return useMutation({ mutationFn: (body: SitePatch) => api.patch<Site>(`/sites/${encodeURIComponent(siteId)}`, body), onSuccess: storeSite });
}

/** PUT /sites/{id}/synoptic: a new version on top of `baseVersion` (409 VERSION_CONFLICT otherwise). */
export function useSaveSynoptic(siteId: string) {
  return useMutation({
    mutationFn: (body: SynopticSave) => api.put<SynopticSaved>(`/sites/${encodeURIComponent(siteId)}/synoptic`, body),
    onSuccess: (saved) => {
      const { sanitized: _sanitized, ...synoptic } = saved;
      queryClient.setQueryData<Synoptic>(siteKeys.synoptic(siteId), synoptic);
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
