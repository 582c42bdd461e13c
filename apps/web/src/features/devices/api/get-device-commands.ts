import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Command } from '@agua/shared';
import { api, isApiError } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface CommandPage {
  items: Command[];
  nextCursor: string | null;
}

export const COMMAND_HISTORY_LIMIT = 20;

/** The device's last commands, newest first. A server without this list yet answers empty. */
export async function getDeviceCommands(deviceId: string, signal?: AbortSignal): Promise<CommandPage> {
  try {
    const page = await api.get<CommandPage | Command[]>('/commands', { deviceId, limit: COMMAND_HISTORY_LIMIT }, signal);
    if (Array.isArray(page)) return { items: page, nextCursor: null };
    return { items: Array.isArray(page?.items) ? page.items : [], nextCursor: page?.nextCursor ?? null };
  } catch (error) {
    if (isApiError(error) && error.status === 404) return { items: [], nextCursor: null };
    throw error;
  }
}

export function deviceCommandsQueryOptions(deviceId: string) {
  return queryOptions({
    queryKey: queryKeys.deviceCommands(deviceId),
    queryFn: ({ signal }) => getDeviceCommands(deviceId, signal),
  });
}

export function useDeviceCommands(deviceId: string | null) {
  return useQuery({ ...deviceCommandsQueryOptions(deviceId ?? ''), enabled: deviceId !== null });
}
