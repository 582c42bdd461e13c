import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@agua/shared';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** GET /users: a plain list or a page {items}; both are accepted. */
export async function getUsers(signal?: AbortSignal): Promise<User[]> {
  const body = await api.get<User[] | { items: User[] }>('/users', undefined, signal);
  if (Array.isArray(body)) return body;
  return Array.isArray(body?.items) ? body.items : [];
}

export const usersQueryOptions = queryOptions({
  queryKey: queryKeys.users,
  queryFn: ({ signal }) => getUsers(signal),
});

export function useUsers() {
  return useQuery(usersQueryOptions);
}
