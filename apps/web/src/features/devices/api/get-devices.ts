import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Device } from '@agua/shared';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

// While the live socket is down the list is polled instead, so screens stay roughly current.
const POLL_WITHOUT_LIVE_MS = 10_000;

export function getDevices(signal?: AbortSignal): Promise<Device[]> {
  return api.get<Device[]>('/devices', undefined, signal);
}

export const devicesQueryOptions = queryOptions({
  queryKey: queryKeys.devices,
  queryFn: ({ signal }) => getDevices(signal),
});

export function useDevicesQuery(liveOpen: boolean, enabled = true) {
  return useQuery({ ...devicesQueryOptions, enabled, refetchInterval: liveOpen ? false : POLL_WITHOUT_LIVE_MS });
}
