import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface AuditEvent {
  id: string;
  at: string;
  action: string;
  userId: string | null;
  username: string | null;
  target: string | null;
  result: 'ok' | 'denied' | 'failed';
  ip: string | null;
  details?: unknown;
}

interface AuditPage {
  items: AuditEvent[];
  nextCursor: string | null;
}

const PAGE_SIZE = 50;

/** GET /audit: newest first, one page per cursor. */
export function getAuditEvents(cursor: string | null, signal?: AbortSignal): Promise<AuditPage> {
  return api.get<AuditPage>('/audit', { limit: PAGE_SIZE, cursor }, signal);
}

export function useAuditEvents() {
  return useInfiniteQuery({
    queryKey: queryKeys.audit,
    queryFn: ({ pageParam, signal }) => getAuditEvents(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}
