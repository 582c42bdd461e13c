import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import type { Schedule, SchedulePreview } from '@agua/shared';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { forgetSchedule, storeSchedule, type ScheduleRunPage, type ScheduleRunPages } from '@/lib/schedule-cache';
import type { ScheduleBody } from '../utils/schedule-form';

const path = (id: string) => `/schedules/${encodeURIComponent(id)}`;
/** Runs shown at first, and brought by each 'Ver más'. */
export const RUNS_PAGE_SIZE = 5;
/**
 * The preview's verdict is the interlocks' now: it is asked again when an interlock changes (the
 * live socket) and, for conditions that change silently (a level, a reading ageing), this often.
 */
const PREVIEW_REFRESH_MS = 30_000;
/** While a close-after is planned, the runs are asked again this often (the socket may be down). */
const PENDING_REFRESH_MS = 30_000;

/** GET /schedules?deviceId: one gate's schedules, kept by the schedule frames (lib/schedule-cache.ts). */
export function useGateSchedules(deviceId: string) {
  return useQuery({
    queryKey: queryKeys.deviceSchedules(deviceId),
    queryFn: ({ signal }) => api.get<Schedule[]>('/schedules', { deviceId }, signal),
  });
}

/** GET /schedules/{id}/preview: the next 10 runs, judged against the interlocks as they stand now. */
export function useSchedulePreview(id: string | undefined) {
  return useQuery({
    queryKey: queryKeys.schedulePreview(id ?? ''),
    queryFn: ({ signal }) => api.get<SchedulePreview>(`${path(id!)}/preview`, undefined, signal),
    enabled: id !== undefined,
    refetchInterval: PREVIEW_REFRESH_MS,
  });
}

/** GET /schedules/{id}/runs: newest planned first, a page per 'Ver más'; kept by schedule.run frames. */
export function useScheduleRuns(id: string) {
  return useInfiniteQuery({
    queryKey: queryKeys.scheduleRuns(id),
    queryFn: ({ pageParam, signal }) => api.get<ScheduleRunPage>(`${path(id)}/runs`, { limit: RUNS_PAGE_SIZE, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: ScheduleRunPage) => last.nextCursor ?? undefined,
    refetchInterval: (query) => {
      const data = query.state.data as ScheduleRunPages | undefined;
      return data?.pages.some((p) => p.items.some((r) => r.status === 'pending')) ? PENDING_REFRESH_MS : false;
    },
  });
}

/** POST /schedules (admin): 201 with the schedule, into its gate's list at once. */
export function useCreateSchedule() {
  return useMutation({
    mutationFn: (input: ScheduleBody & { deviceId: string }) => api.post<Schedule>('/schedules', input),
    onSuccess: storeSchedule,
  });
}

/** PATCH /schedules/{id} (admin): the whole form, or one field (enabled). */
export function useUpdateSchedule() {
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: Partial<ScheduleBody> }) => api.patch<Schedule>(path(id), patch),
    onSuccess: storeSchedule,
  });
}

/** DELETE /schedules/{id} (admin): 204; a planned close-after is cancelled by the server. */
export function useDeleteSchedule() {
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(path(id)),
    onSuccess: (_, id) => forgetSchedule(id),
  });
}
