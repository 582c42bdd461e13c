import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Settings } from '@agua/shared';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** GET /settings (manage_users): the roles that must sign in with two-factor verification. */
export function getSettings(signal?: AbortSignal): Promise<Settings> {
  return api.get<Settings>('/settings', undefined, signal);
}

export function useSettings(enabled = true) {
  return useQuery({ queryKey: queryKeys.settings, queryFn: ({ signal }) => getSettings(signal), enabled });
}

/** PATCH /settings (audited settings.updated); the answer is the settings as they now are. */
export function patchSettings(changes: Partial<Settings>): Promise<Settings> {
  return api.patch<Settings>('/settings', changes);
}

export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: patchSettings,
    onSuccess: (settings) => {
      queryClient.setQueryData(queryKeys.settings, settings);
      // Who must still enrol ('Pendiente de activar') follows the setting.
      void queryClient.invalidateQueries({ queryKey: queryKeys.users });
    },
  });
}
