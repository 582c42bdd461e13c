import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { markCommandIssued, type CommandAccepted } from '@/lib/device-cache';

export interface SendCommandInput {
  deviceId: string;
  command: string;
}

/** POST /devices/{id}/commands → 202 once the server stored it; the device answers later. */
export function postDeviceCommand({ deviceId, command }: SendCommandInput): Promise<CommandAccepted> {
  return api.post<CommandAccepted>(`/devices/${encodeURIComponent(deviceId)}/commands`, { command });
}

export function useSendDeviceCommand() {
  return useMutation({
    mutationFn: postDeviceCommand,
    onSuccess: (accepted, { deviceId, command }) => markCommandIssued(deviceId, command, accepted),
  });
}
