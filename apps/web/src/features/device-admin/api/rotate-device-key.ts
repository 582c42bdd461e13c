import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /devices/{id}/key → {apiKey}: the old key stops working at once. */
export function rotateDeviceKey(deviceId: string): Promise<{ apiKey: string }> {
  return api.post<{ apiKey: string }>(`/devices/${encodeURIComponent(deviceId)}/key`);
}

export function useRotateDeviceKey() {
  return useMutation({ mutationFn: rotateDeviceKey });
}
