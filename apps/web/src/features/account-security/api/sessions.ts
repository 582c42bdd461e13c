import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** One of one's own sessions (GET /auth/sessions): its id is its own, never the cookie's token. */
export interface AccountSession {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  address: string | null;
  userAgent: string | null;
  current: boolean;
}

export function getMySessions(signal?: AbortSignal): Promise<AccountSession[]> {
  return api.get<AccountSession[]>('/auth/sessions', undefined, signal);
}

/** Newest first; not while the session must still turn on two-factor sign-in (the server refuses it). */
export function useMySessions(enabled = true) {
  return useQuery({ queryKey: queryKeys.mySessions, queryFn: ({ signal }) => getMySessions(signal), enabled, staleTime: 10_000 });
}

/** DELETE /auth/sessions/{id} → 204: that browser is signed out (its live socket closes at once). */
export function revokeSession(id: string): Promise<void> {
  return api.delete<void>(`/auth/sessions/${encodeURIComponent(id)}`);
}

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.mySessions }),
  });
}
