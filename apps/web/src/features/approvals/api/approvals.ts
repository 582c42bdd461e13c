import { useMutation, useQuery } from '@tanstack/react-query';
import type { Command } from '@agua/shared';
import { api } from '@/lib/api-client';
import { applyAwaitingCommand } from '@/lib/interlock-cache';
import { queryClient } from '@/lib/query-client';
import { queryKeys } from '@/lib/query-keys';

/** More than any plant waits on at once: each gate has at most one (a later command supersedes it). */
const AWAITING_LIMIT = 100;
/** Without the live socket the list is asked again this often. */
const POLL_WITHOUT_LIVE_MS = 10_000;

/**
 * GET /commands?status=awaiting_approval: the two-person commands waiting for a second person,
 * oldest first; command.updated frames keep the list (lib/interlock-cache.ts).
 */
export function useAwaitingCommands(enabled: boolean, live: boolean) {
  return useQuery({
    queryKey: queryKeys.awaitingCommands,
    queryFn: async ({ signal }) => {
      const page = await api.get<{ items: Command[] }>('/commands', { status: 'awaiting_approval', limit: AWAITING_LIMIT }, signal);
      return page.items.reduce<Command[]>(applyAwaitingCommand, []);
    },
    enabled,
    staleTime: live ? Infinity : POLL_WITHOUT_LIVE_MS,
    refetchInterval: live ? false : POLL_WITHOUT_LIVE_MS,
  });
}

function settled(command: Command): Command {
  queryClient.setQueryData<Command[]>(queryKeys.awaitingCommands, (list) => (list ? applyAwaitingCommand(list, command) : list));
  return command;
}

export interface DecisionInput {
  commandId: string;
  comment?: string;
}

const body = ({ comment }: DecisionInput) => (comment?.trim() ? { comment: comment.trim() } : {});
const path = (id: string, what: 'approve' | 'reject') => `/commands/${encodeURIComponent(id)}/${what}`;

/**
 * POST /commands/{id}/approve: the command is sent. Its issuer gets 403 SELF_APPROVAL; the
 * device's state is judged again (409 DEVICE_OFFLINE / INTERLOCKED / COMMAND_IN_PROGRESS: the
 * command waits on).
 */
export function useApproveCommand() {
  return useMutation({ mutationFn: async (input: DecisionInput) => settled(await api.post<Command>(path(input.commandId, 'approve'), body(input))) });
}

/** POST /commands/{id}/reject: never sent (any user with write, its issuer included). */
export function useRejectCommand() {
  return useMutation({ mutationFn: async (input: DecisionInput) => settled(await api.post<Command>(path(input.commandId, 'reject'), body(input))) });
}
