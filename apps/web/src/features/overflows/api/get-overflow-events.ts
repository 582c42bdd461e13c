import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { OverflowFilters, OverflowPage } from '@/lib/overflow-cache';
import { queryKeys } from '@/lib/query-keys';

const PAGE_SIZE = 50;

/** GET /overflow-events: events started in the range, newest first, one page per cursor. */
export function getOverflowEvents(filters: OverflowFilters, cursor: string | null, signal?: AbortSignal): Promise<OverflowPage> {
  return api.get<OverflowPage>('/overflow-events', { ...filters, limit: PAGE_SIZE, cursor }, signal);
}

export function overflowEventsQueryOptions(filters: OverflowFilters) {
  return {
    // The live socket finds each list's filters in the key's last part (lib/overflow-cache.ts).
    queryKey: [...queryKeys.overflowLists, filters] as const,
    queryFn: ({ pageParam, signal }: { pageParam: string | null; signal: AbortSignal }) => getOverflowEvents(filters, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: OverflowPage) => last.nextCursor ?? undefined,
  };
}

/** The list of a filter, kept current by `overflow.updated` frames; the previous one stays while a new filter loads. */
export function useOverflowEvents(filters: OverflowFilters, enabled = true) {
  return useInfiniteQuery({ ...overflowEventsQueryOptions(filters), enabled, placeholderData: keepPreviousData });
}
