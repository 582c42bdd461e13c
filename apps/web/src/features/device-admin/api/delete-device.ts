import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Device } from '@agua/shared';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface DeleteDeviceInput {
  deviceId: string;
  /** Also delete its stored history; without it the history stays readable and exportable. */
  purge: boolean;
}

/** DELETE /devices/{id}[?purge=true] → 204. */
export function deleteDevice({ deviceId, purge }: DeleteDeviceInput): Promise<void> {
  return api.delete<void>(`/devices/${encodeURIComponent(deviceId)}${purge ? '?purge=true' : ''}`);
}

export function useDeleteDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDevice,
    onSuccess: (_, { deviceId }) => {
      queryClient.setQueryData<Device[]>(queryKeys.devices, (devices) => devices?.filter((d) => d.id !== deviceId));
      queryClient.removeQueries({ queryKey: queryKeys.deviceReadings(deviceId) });
      queryClient.removeQueries({ queryKey: queryKeys.deviceCommands(deviceId) });
    },
    // The refetched list leaves retired devices out, whatever a live event said meanwhile.
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.devices }),
  });
}
