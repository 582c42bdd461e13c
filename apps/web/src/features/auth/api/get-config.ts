import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ShelveCriticalAccess } from '@agua/shared';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface AppConfig {
  demo: boolean;
  version: string;
  /** Who may shelve a Crítica alarm (ALARM_SHELVE_CRITICAL on the server). */
  alarmShelveCritical: ShelveCriticalAccess;
}

export function getConfig(): Promise<AppConfig> {
  return api.get<AppConfig>('/config');
}

export const configQueryOptions = queryOptions({
  queryKey: queryKeys.config,
  queryFn: getConfig,
  staleTime: Infinity,
  retry: 1,
});

/** Public configuration: whether the login page lists the demo accounts, who may shelve a Crítica alarm. */
export function useAppConfig() {
  return useQuery(configQueryOptions);
}
