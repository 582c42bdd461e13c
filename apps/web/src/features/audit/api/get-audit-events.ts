import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { api, apiFetch } from '@/lib/api-client';
import { attachmentName, saveBlob } from '@/lib/download';
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
  details?: Record<string, unknown> | null;
}

export interface AuditPage {
  items: AuditEvent[];
  nextCursor: string | null;
}

/** Server-side filters of GET /audit; times are ISO 8601 with an offset. */
export interface AuditQuery {
  userId?: string;
  deviceId?: string;
  action?: string;
  from?: string;
  to?: string;
}

const PAGE_SIZE = 50;

/** GET /audit: newest first, one page per cursor. */
export function getAuditEvents(filters: AuditQuery, cursor: string | null, signal?: AbortSignal): Promise<AuditPage> {
  return api.get<AuditPage>('/audit', { ...filters, limit: PAGE_SIZE, cursor }, signal);
}

export function auditEventsQueryOptions(filters: AuditQuery) {
  return {
    queryKey: [...queryKeys.audit, filters] as const,
    queryFn: ({ pageParam, signal }: { pageParam: string | null; signal: AbortSignal }) => getAuditEvents(filters, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: AuditPage) => last.nextCursor ?? undefined,
  };
}

export function useAuditEvents(filters: AuditQuery, enabled = true) {
  // The previous results stay while a new filter loads: the table does not collapse and jump.
  return useInfiniteQuery({ ...auditEventsQueryOptions(filters), enabled, placeholderData: keepPreviousData });
}

/**
 * GET /export-audit.csv of the same filters: fetched rather than linked, so that a refusal
 * (404 NO_DATA when nothing matches) is shown in Spanish instead of being saved as a file.
 */
export async function downloadAudit(filters: AuditQuery): Promise<void> {
  const response = await apiFetch('/export-audit.csv', { query: { ...filters } }, 'text/csv');
  saveBlob(await response.blob(), attachmentName(response) ?? 'Auditoria.csv');
}
