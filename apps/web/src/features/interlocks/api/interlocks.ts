import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { Interlock, InterlockCreate, InterlockPatch } from '@agua/shared';
import { api } from '@/lib/api-client';
import { removeInterlock, upsertInterlock } from '@/lib/interlock-cache';
import { queryClient } from '@/lib/query-client';
import { queryKeys } from '@/lib/query-keys';

const path = (id: string) => `/interlocks/${encodeURIComponent(id)}`;

/** GET /interlocks: every interlock (every role may read them), kept current by interlock frames. */
export const interlocksQueryOptions = queryOptions({
  queryKey: queryKeys.interlocks,
  queryFn: ({ signal }) => api.get<Interlock[]>('/interlocks', undefined, signal),
  // The live socket keeps the list (lib/interlock-cache.ts) and asks again after a reconnect.
  staleTime: Infinity,
});

export function useInterlocks(enabled = true) {
  return useQuery({ ...interlocksQueryOptions, enabled });
}

/** GET /interlocks/{id}: the one stored now (after a 409 VERSION_CONFLICT the form reloads it). */
export function getInterlock(id: string): Promise<Interlock> {
  return api.get<Interlock>(path(id));
}

/** An answer is put in the list at once; its frame, which may come before or after, changes nothing then. */
function remember(interlock: Interlock): Interlock {
  queryClient.setQueryData<Interlock[]>(queryKeys.interlocks, (list) => (list ? upsertInterlock(list, interlock) : list));
  void queryClient.invalidateQueries({ queryKey: queryKeys.allPermissives });
  return interlock;
}

/** POST /interlocks (manage_devices): 201; 422 INTERLOCK_INVALID names the field and why. */
export function useCreateInterlock() {
  return useMutation({ mutationFn: async (input: InterlockCreate) => remember(await api.post<Interlock>('/interlocks', input)) });
}

/** PATCH /interlocks/{id} with the version read: 409 VERSION_CONFLICT when someone else changed it. */
export function useUpdateInterlock() {
  return useMutation({ mutationFn: async ({ id, patch }: { id: string; patch: InterlockPatch }) => remember(await api.patch<Interlock>(path(id), patch)) });
}

/** DELETE /interlocks/{id}: 204. */
export function useDeleteInterlock() {
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(path(id)),
    onSuccess: (_void, id) => {
      queryClient.setQueryData<Interlock[]>(queryKeys.interlocks, (list) => (list ? removeInterlock(list, id) : list));
      void queryClient.invalidateQueries({ queryKey: queryKeys.allPermissives });
    },
  });
}

/** POST /interlocks/{id}/bypass: 1–720 minutes with a comment (422 INVALID_VALUE {field}); again replaces it. */
export function useBypassInterlock() {
  return useMutation({
    mutationFn: async ({ id, minutes, comment }: { id: string; minutes: number; comment: string }) => remember(await api.post<Interlock>(`${path(id)}/bypass`, { minutes, comment })),
  });
}

/** DELETE /interlocks/{id}/bypass: the bypass ends now. */
export function useEndBypass() {
  return useMutation({ mutationFn: async (id: string) => remember(await api.delete<Interlock>(`${path(id)}/bypass`)) });
}
