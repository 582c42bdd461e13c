import { useQuery } from '@tanstack/react-query';
import type { Interlock } from '@agua/shared';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/**
 * The interlocks bypassed now: the live socket's hello brings them and interlock frames keep them
 * (lib/interlock-cache.ts). Asked over HTTP only when a screen needs them before the hello came.
 */
export function useBypasses(enabled = true) {
  return useQuery({
    queryKey: queryKeys.bypasses,
    queryFn: async ({ signal }) => (await api.get<Interlock[]>('/interlocks', undefined, signal)).filter((i) => i.bypass !== null),
    staleTime: Infinity,
    enabled,
  });
}
