import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StorageStatus } from '@agua/shared';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

// A disk fills over hours; a minute is soon enough, and cheap for the server.
const POLL_MS = 60_000;

/** GET /system/storage (manage_devices): free disk space on the server and any storage fault. */
export function getStorageStatus(signal?: AbortSignal): Promise<StorageStatus> {
  return api.get<StorageStatus>('/system/storage', undefined, signal);
}

export const storageStatusQueryOptions = queryOptions({
  queryKey: queryKeys.storage,
  queryFn: ({ signal }) => getStorageStatus(signal),
  staleTime: POLL_MS,
  refetchInterval: POLL_MS,
});

export function useStorageStatus(enabled: boolean) {
  return useQuery({ ...storageStatusQueryOptions, enabled });
}
