import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Role, User } from '@agua/shared';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface CreateUserBody {
  username: string;
  name: string;
  email: string;
  role: Role;
  /** Temporary: the user must change it at the first sign-in. */
  password: string;
  /** The new admin's own master password; required for role admin. */
  masterPassword?: string;
}

/** POST /users → 201 User. */
export function createUser(body: CreateUserBody): Promise<User> {
  return api.post<User>('/users', body);
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.users }),
  });
}
