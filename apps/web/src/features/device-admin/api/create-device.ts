import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Device, DeviceType, WaterType } from '@agua/shared';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface DeviceConfigBody {
  maxLevel?: number;
  warningPct?: number;
  criticalPct?: number;
  offlineAfterS?: number;
  travelTimeoutS?: number;
}

export interface CreateDeviceBody {
  id: string;
  name: string;
  location: string;
  type: DeviceType;
  waterType?: WaterType | null;
  config: DeviceConfigBody;
}

/** What the server answers once per key: the device and its API key (only a hash is kept). */
export interface IssuedKey {
  device: Device;
  apiKey: string;
}

/** POST /devices → 201 {device, apiKey}. */
export function createDevice(body: CreateDeviceBody): Promise<IssuedKey> {
  return api.post<IssuedKey>('/devices', body);
}

export function useCreateDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDevice,
    onSuccess: ({ device }) => {
      // The live socket also announces it; adding it here makes the list show it at once.
      queryClient.setQueryData<Device[]>(queryKeys.devices, (devices) => (devices && !devices.some((d) => d.id === device.id) ? [...devices, device] : devices));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.devices }),
  });
}
