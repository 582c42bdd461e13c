import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Report, ReportInput } from '@agua/shared';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** GET /reports: every definition. */
export async function getReports(signal?: AbortSignal): Promise<Report[]> {
  const body = await api.get<{ items: Report[] }>('/reports', undefined, signal);
  return body.items;
}

export const reportsQueryOptions = queryOptions({
  queryKey: queryKeys.reports,
  queryFn: ({ signal }) => getReports(signal),
});

export function useReports() {
  return useQuery(reportsQueryOptions);
}

/** POST /reports (admin): 201 with the definition; 422 for what cannot be (an unknown device or recipient). */
export function useCreateReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ReportInput) => api.post<Report>('/reports', input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.reports }),
  });
}

/** PUT /reports/{id} (admin): the whole definition. */
export function useUpdateReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: ReportInput }) => api.put<Report>(`/reports/${encodeURIComponent(id)}`, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.reports }),
  });
}

/** DELETE /reports/{id} (admin); its runs may go with it, so their lists are asked again. */
export function useDeleteReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/reports/${encodeURIComponent(id)}`),
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.reports }), queryClient.invalidateQueries({ queryKey: queryKeys.reportRuns })]),
  });
}
