import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ShelveCriticalAccess } from '@agua/shared';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface AppConfig {
  demo: boolean;
  version: string;
  /** Who may shelve a Crítica alarm (ALARM_SHELVE_CRITICAL on the server). */
  alarmShelveCritical: ShelveCriticalAccess;
  /** The installation's IANA time zone: local times on screen (a bypass's end) are its. Absent from an older server. */
  timezone?: string;
  /** The sites' map (MAP_TILE_URL, MAP_ATTRIBUTION): null tiles draw the sites on a plain background. Absent from an older server. */
  map?: { tileUrl: string | null; attribution: string | null };
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

/** The installation's time zone; the browser's until the configuration came (or from a server that does not say). */
export function useInstallationTimeZone(): string | undefined {
  return useAppConfig().data?.timezone;
}
