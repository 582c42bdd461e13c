import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** DELETE /users/{id}/totp → 204: a lost phone; the user's recovery codes are deleted and their sessions end. */
export function resetUserTotp(userId: string): Promise<void> {
  return api.delete<void>(`/users/${encodeURIComponent(userId)}/totp`);
}

export function useResetUserTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetUserTotp,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.users }),
  });
}
