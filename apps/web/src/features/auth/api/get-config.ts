import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface AppConfig {
  demo: boolean;
  version: string;
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

/** Public configuration for the login page (whether to list the demo accounts). */
export function useAppConfig() {
  return useQuery(configQueryOptions);
}
