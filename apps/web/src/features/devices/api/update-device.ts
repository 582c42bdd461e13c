import { useMutation } from '@tanstack/react-query';
import type { Device } from '@agua/shared';
import { api } from '@/lib/api-client';
import { replaceDevice } from '@/lib/device-cache';

export interface UpdateDeviceInput {
  deviceId: string;
  changes: { enabled?: boolean; name?: string; location?: string };
}

export function patchDevice({ deviceId, changes }: UpdateDeviceInput): Promise<Device> {
  return api.patch<Device>(`/devices/${encodeURIComponent(deviceId)}`, changes);
}

export function useUpdateDevice() {
  return useMutation({
    mutationFn: patchDevice,
    onSuccess: (device) => {
      // Some servers answer 204; the live socket then brings the change.
      if (device && typeof device === 'object' && 'id' in device) replaceDevice(device);
    },
  });
}
