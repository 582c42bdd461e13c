/**
 * Writes into the devices cache that more than one feature needs. The live socket will soon bring
 * the real command; this only makes the card react at once (buttons disabled, 'Enviado…').
 */
import type { Device } from '@agua/shared';
import { queryClient } from './query-client';
import { queryKeys } from './query-keys';

export interface CommandAccepted {
  success: boolean;
  message: string;
  commandId: string;
  /** A two-person command: not sent until another user approves it (docs/control.md). */
  status?: 'awaiting_approval';
}

export function markCommandIssued(deviceId: string, command: string, accepted: CommandAccepted): void {
  queryClient.setQueryData<Device[]>(queryKeys.devices, (devices) =>
    devices?.map((d) => {
      if (d.id !== deviceId || d.lastCommand?.id === accepted.commandId) return d;
      return {
        ...d,
        lastCommand: {
          id: accepted.commandId,
          deviceId,
          command,
          status: accepted.status ?? 'pending',
          issuedBy: null,
          issuedAt: new Date().toISOString(),
          deliveredAt: null,
          completedAt: null,
          message: null,
          comment: null,
          approvedBy: null,
          approvedAt: null,
          approvalExpiresAt: null,
          overrides: [],
        },
      };
    }),
  );
}

export function replaceDevice(device: Device): void {
  queryClient.setQueryData<Device[]>(queryKeys.devices, (devices) => devices?.map((d) => (d.id === device.id ? device : d)));
}
