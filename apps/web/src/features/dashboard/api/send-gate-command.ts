import { useMutation } from '@tanstack/react-query';
import type { GateCommand } from '@agua/shared';
import { api } from '@/lib/api-client';
import { markCommandIssued, type CommandAccepted } from '@/lib/device-cache';

export interface GateCommandInput {
  deviceId: string;
  command: Extract<GateCommand, 'abrir' | 'cerrar'>;
}

/** The dashboard only opens and closes gates; the devices screen has the full command set. */
export function postGateCommand({ deviceId, command }: GateCommandInput): Promise<CommandAccepted> {
  return api.post<CommandAccepted>(`/devices/${encodeURIComponent(deviceId)}/commands`, { command });
}

export function useSendGateCommand() {
  return useMutation({
    mutationFn: postGateCommand,
    onSuccess: (accepted, { deviceId, command }) => markCommandIssued(deviceId, command, accepted),
  });
}
