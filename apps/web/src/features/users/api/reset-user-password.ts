import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '@agua/shared';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface ResetUserPasswordInput {
  userId: string;
  password: string;
}

/** POST /users/{id}/password: a new temporary password; the user's sessions end. */
export function resetUserPassword({ userId, password }: ResetUserPasswordInput): Promise<User> {
  return api.post<User>(`/users/${encodeURIComponent(userId)}/password`, { password });
}

export function useResetUserPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetUserPassword,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.users }),
  });
}
