import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DeviceGeometry } from '@agua/shared';
import { api } from '@/lib/api-client';

export const geometryQueryKey = (deviceId: string) => ['geometry', deviceId] as const;

/** GET /devices/{id}/geometry: the current version and every version, newest first. */
export function getGeometry(deviceId: string, signal?: AbortSignal): Promise<DeviceGeometry> {
  return api.get<DeviceGeometry>(`/devices/${encodeURIComponent(deviceId)}/geometry`, undefined, signal);
}

export const geometryQueryOptions = (deviceId: string) =>
  queryOptions({
    queryKey: geometryQueryKey(deviceId),
    queryFn: ({ signal }) => getGeometry(deviceId, signal),
  });

export function useGeometry(deviceId: string, enabled = true) {
  return useQuery({ ...geometryQueryOptions(deviceId), enabled });
}
