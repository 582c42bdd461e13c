import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { markCommandIssued, type CommandAccepted } from '@/lib/device-cache';
import { queryClient } from '@/lib/query-client';
import { queryKeys } from '@/lib/query-keys';

export interface IssueCommandInput {
  deviceId: string;
  command: string;
  /** Demanded by a failed `confirm` interlock. */
  comment?: string;
  /** The issuer's own password, demanded by a failed `reauth` interlock; never kept. */
  password?: string;
  /** 'Tomar control manual': the gate follows a schedule's open period, and the person takes it. */
  takeManual?: boolean;
}

/**
 * POST /devices/{id}/commands → 202 once stored (sent, or waiting for a second person's approval).
 * Refusals in the server's order: 403, 404, 422 COMMAND_INVALID, 409 DEVICE_OFFLINE, 409
 * INTERLOCKED, 422 COMMENT_REQUIRED, 422 REAUTH_REQUIRED / REAUTH_FAILED (429 in a lockout), 409
 * SCHEDULE_ACTIVE (unless takeManual), 409 COMMAND_IN_PROGRESS.
 */
export function postCommand({ deviceId, command, comment, password, takeManual }: IssueCommandInput): Promise<CommandAccepted> {
  return api.post<CommandAccepted>(`/devices/${encodeURIComponent(deviceId)}/commands`, {
    command,
    ...(comment?.trim() ? { comment: comment.trim() } : {}),
    ...(password ? { password } : {}),
    ...(takeManual ? { takeManual: true } : {}),
  });
}

export function useIssueCommand() {
  return useMutation({
    mutationFn: postCommand,
    onSuccess: (accepted, { deviceId, command }) => markCommandIssued(deviceId, command, accepted),
    // Whatever the answer, what the check says may have changed (a refusal says so at least).
    onSettled: (_a, _e, { deviceId }) => queryClient.invalidateQueries({ queryKey: [...queryKeys.allPermissives, deviceId] }),
  });
}
