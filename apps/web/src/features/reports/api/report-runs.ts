import { keepPreviousData, useInfiniteQuery, useMutation } from '@tanstack/react-query';
import type { ReportFormat, ReportRun, ReportRunPage, ReportRunRequest } from '@agua/shared';
import { api, apiFetch } from '@/lib/api-client';
import { attachmentName, saveBlob } from '@/lib/download';
import { queryKeys } from '@/lib/query-keys';
import { isRunPending, storeReportRuns, type ReportRunFilters, type ReportRunPages } from '@/lib/report-run-cache';

const PAGE_SIZE = 20;
/** While a run on screen is queued or running, its list is asked again this often (the socket may be down). */
const PENDING_REFETCH_MS = 10_000;

/** GET /report-runs: newest first, one page per cursor. */
export function getReportRuns(filters: ReportRunFilters, cursor: string | null, signal?: AbortSignal): Promise<ReportRunPage> {
  return api.get<ReportRunPage>('/report-runs', { ...filters, limit: PAGE_SIZE, cursor }, signal);
}

/** The runs of a filter, kept current by `report_run.updated` frames (lib/report-run-cache.ts). */
export function useReportRuns(filters: ReportRunFilters) {
  return useInfiniteQuery({
    // The live socket finds each list's filter in the key's last part.
    queryKey: [...queryKeys.reportRuns, filters] as const,
    queryFn: ({ pageParam, signal }) => getReportRuns(filters, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: ReportRunPage) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => {
      const data = query.state.data as ReportRunPages | undefined;
      return data?.pages.some((p) => p.items.some(isRunPending)) ? PENDING_REFETCH_MS : false;
    },
  });
}

/** POST /reports/{id}/runs ('Generar ahora'): 202 with the queued run, which goes on top of the lists at once. */
export function useRunReport() {
  return useMutation({
    mutationFn: ({ reportId, request }: { reportId: string; request: ReportRunRequest }) => api.post<ReportRun>(`/reports/${encodeURIComponent(reportId)}/runs`, request),
    onSuccess: (run) => storeReportRuns([run]),
  });
}

const ACCEPT: Record<ReportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
};

/**
 * GET /report-runs/{id}/file: fetched rather than linked, so that a refusal (409 REPORT_NOT_READY)
 * is shown in Spanish instead of being saved as a file.
 */
export async function downloadReportFile(run: ReportRun, format: ReportFormat): Promise<void> {
  const response = await apiFetch(`/report-runs/${encodeURIComponent(run.id)}/file`, { query: { format } }, ACCEPT[format]);
  saveBlob(await response.blob(), attachmentName(response) ?? `informe-${run.from}-${run.to}.${format}`);
}
