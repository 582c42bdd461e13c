import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { OverflowStats } from '@agua/shared';
import { api } from '@/lib/api-client';
import type { OverflowFilters } from '@/lib/overflow-cache';
import { queryKeys } from '@/lib/query-keys';

/** GET /overflow-events/stats: counts of the events started in the range (the 12/24 count per device, summed). */
export function getOverflowStats(filters: OverflowFilters, signal?: AbortSignal): Promise<OverflowStats> {
  return api.get<OverflowStats>('/overflow-events/stats', { ...filters }, signal);
}

/** Asked again after each `overflow.updated` frame (lib/overflow-cache.ts). */
export function useOverflowStats(filters: OverflowFilters, enabled = true) {
  return useQuery({
    queryKey: [...queryKeys.overflowStats, filters] as const,
    queryFn: ({ signal }) => getOverflowStats(filters, signal),
    enabled,
    placeholderData: keepPreviousData,
  });
}
