import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeviceGeometry, GeometryInput } from '@agua/shared';
import { api } from '@/lib/api-client';
import { geometryQueryKey } from './get-geometry';

export interface SaveGeometryInput {
  deviceId: string;
  geometry: GeometryInput;
}

/** PUT /devices/{id}/geometry: every save is a new version (docs/water.md). */
export function saveGeometry({ deviceId, geometry }: SaveGeometryInput): Promise<DeviceGeometry> {
  return api.put<DeviceGeometry>(`/devices/${encodeURIComponent(deviceId)}/geometry`, geometry);
}

export function useSaveGeometry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveGeometry,
    // The answer is the whole GET (new version and the list), so it replaces the cache as is.
    onSuccess: (saved, { deviceId }) => queryClient.setQueryData(geometryQueryKey(deviceId), saved),
  });
}
