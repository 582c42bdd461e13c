import { useMutation } from '@tanstack/react-query';
import type { Device, WaterType } from '@agua/shared';
import { api } from '@/lib/api-client';
import { replaceDevice } from '@/lib/device-cache';
import type { DeviceConfigBody } from './create-device';

export interface EditDeviceInput {
  deviceId: string;
  changes: { name?: string; location?: string; waterType?: WaterType | null; config?: DeviceConfigBody };
}

/** PATCH /devices/{id} with the settings that changed ('Editar' in the control panel). */
export function editDevice({ deviceId, changes }: EditDeviceInput): Promise<Device> {
  return api.patch<Device>(`/devices/${encodeURIComponent(deviceId)}`, changes);
}

export function useEditDevice() {
  return useMutation({
    mutationFn: editDevice,
    onSuccess: (device) => {
      if (device && typeof device === 'object' && 'id' in device) replaceDevice(device);
    },
  });
}
