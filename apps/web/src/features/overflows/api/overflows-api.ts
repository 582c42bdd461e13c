import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { OverflowEvent, OverflowEventPatch, OverflowStats } from '@agua/shared';
import { api } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';
import { queryKeys } from '@/lib/query-keys';

interface OverflowPage {
  items: OverflowEvent[];
  nextCursor: string | null;
}

export interface OverflowFilters {
  deviceId?: string;
  from?: string;
  to?: string;
}

const PAGE_SIZE = 50;

/** GET /overflow-events: the events started in the filter, newest first, a page per cursor. */
export function useOverflowEvents(filters: OverflowFilters) {
  return useInfiniteQuery({
    queryKey: [...queryKeys.overflows, 'list', filters] as const,
    queryFn: ({ pageParam, signal }) => api.get<OverflowPage>('/overflow-events', { ...filters, limit: PAGE_SIZE, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });
}

/** GET /overflow-events/stats: counts of the events started in the filter. */
export function useOverflowStats(filters: OverflowFilters) {
  return useQuery({
    queryKey: [...queryKeys.overflows, 'stats', filters] as const,
    queryFn: ({ signal }) => api.get<OverflowStats>('/overflow-events/stats', { ...filters }, signal),
    placeholderData: keepPreviousData,
  });
}

/** PATCH /overflow-events/{id}: what people record of an event; every list and count is read again. */
export async function annotateOverflow(id: string, patch: OverflowEventPatch): Promise<OverflowEvent> {
  const event = await api.patch<OverflowEvent>(`/overflow-events/${encodeURIComponent(id)}`, patch);
  await queryClient.invalidateQueries({ queryKey: queryKeys.overflows });
  return event;
}
