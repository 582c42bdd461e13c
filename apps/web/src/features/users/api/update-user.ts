import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Role, User, UserStatus } from '@agua/shared';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface UpdateUserInput {
  userId: string;
  changes: { name?: string; email?: string; role?: Role; status?: UserStatus; masterPassword?: string; currentMasterPassword?: string };
}

/** PATCH /users/{id}: only the fields that changed are sent. */
export function updateUser({ userId, changes }: UpdateUserInput): Promise<User> {
  return api.patch<User>(`/users/${encodeURIComponent(userId)}`, changes);
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.users }),
  });
}
