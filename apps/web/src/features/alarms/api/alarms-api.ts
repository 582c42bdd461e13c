import { keepPreviousData, useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { ALARM_ACK_MANY_MAX, type Alarm, type AlarmPriority, type AlarmState } from '@agua/shared';
import { api, apiFetch } from '@/lib/api-client';
import { applyAlarmUpdate, sortOpenAlarms } from '@/lib/alarm-cache';
import { attachmentName, saveBlob } from '@/lib/download';
import { queryClient } from '@/lib/query-client';
import { queryKeys } from '@/lib/query-keys';

interface AlarmPage {
  items: Alarm[];
  nextCursor: string | null;
}

/**
 * The open alarms: fetched once, then kept current by the live socket (hello, alarm.updated);
 * a refetch only when the socket is down and the data goes stale.
 */
export function useOpenAlarms(enabled = true) {
  return useQuery({
    queryKey: queryKeys.openAlarms,
    enabled,
    queryFn: async ({ signal }) => sortOpenAlarms((await api.get<AlarmPage>('/alarms', { state: 'open' }, signal)).items),
    staleTime: 30_000,
  });
}

export interface AlarmHistoryFilters {
  deviceId?: string;
  priority?: AlarmPriority;
  state?: AlarmState;
  from?: string;
  to?: string;
  /** Only the site's devices (retired ones too), asked of the server: `?siteId=` (docs/sites.md). */
  siteId?: string;
}

const PAGE_SIZE = 50;

/** GET /alarms: the history, newest first, a page per cursor. */
export function useAlarmHistory(filters: AlarmHistoryFilters) {
  return useInfiniteQuery({
    queryKey: [...queryKeys.alarms, 'history', filters] as const,
    queryFn: ({ pageParam, signal }) => api.get<AlarmPage>('/alarms', { ...filters, limit: PAGE_SIZE, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });
}

const EXPORT_ACCEPT = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv',
} as const;

/**
 * GET /export-alarms.xlsx | .csv: fetched rather than linked, so that a refusal (404 NO_DATA for
 * an empty range) is shown in Spanish instead of being saved as a file.
 */
export async function downloadAlarms(format: keyof typeof EXPORT_ACCEPT, { deviceId, from, to, siteId }: AlarmHistoryFilters): Promise<void> {
  const response = await apiFetch(`/export-alarms.${format}`, { query: { from, to, deviceIds: deviceId, siteId } }, EXPORT_ACCEPT[format]);
  saveBlob(await response.blob(), attachmentName(response) ?? `alarmas.${format}`);
}

/** Puts the server's answer in the open list at once; the live socket confirms it. */
function settle(alarm: Alarm): void {
  queryClient.setQueryData<Alarm[]>(queryKeys.openAlarms, (open) => (open ? applyAlarmUpdate(open, alarm) : open));
}

export function useAckAlarm() {
  return useMutation({
    mutationFn: ({ id, comment }: { id: string; comment: string | null }) => api.post<Alarm>(`/alarms/${encodeURIComponent(id)}/ack`, comment ? { comment } : {}),
    onSuccess: settle,
  });
}

/** POST /alarms/ack in batches of ALARM_ACK_MANY_MAX (the server's limit per call). */
async function ackAlarms({ ids, comment }: { ids: string[]; comment: string | null }) {
  const result = { acked: [] as string[], skipped: [] as string[] };
  for (let i = 0; i < ids.length; i += ALARM_ACK_MANY_MAX) {
    const batch = ids.slice(i, i + ALARM_ACK_MANY_MAX);
    const r = await api.post<{ acked: string[]; skipped: string[] }>('/alarms/ack', comment ? { ids: batch, comment } : { ids: batch });
    result.acked.push(...r.acked);
    result.skipped.push(...r.skipped);
  }
  return result;
}

export function useAckAlarms() {
  return useMutation({
    mutationFn: ackAlarms,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.openAlarms }),
  });
}

export function useShelveAlarm() {
  return useMutation({
    mutationFn: ({ id, minutes, comment }: { id: string; minutes: number; comment: string }) =>
      api.post<Alarm>(`/alarms/${encodeURIComponent(id)}/shelve`, { minutes, comment }),
    onSuccess: settle,
  });
}

export function useUnshelveAlarm() {
  return useMutation({
    mutationFn: (id: string) => api.post<Alarm>(`/alarms/${encodeURIComponent(id)}/unshelve`, {}),
    onSuccess: settle,
  });
}
