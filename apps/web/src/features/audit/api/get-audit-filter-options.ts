import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Device, User } from '@agua/shared';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** GET /users, for the user filter (admins only, as is the audit screen). */
export function getAuditUsers(signal?: AbortSignal): Promise<User[]> {
  return api.get<User[]>('/users', undefined, signal);
}

/** GET /devices?include=retired: retired devices still appear in the trail. */
export function getAuditDevices(signal?: AbortSignal): Promise<Device[]> {
  return api.get<Device[]>('/devices', { include: 'retired' }, signal);
}

// Under the users/devices keys, so that invalidating either list refreshes these too.
export const auditUsersQueryOptions = queryOptions({
  queryKey: [...queryKeys.users, 'audit-filter'] as const,
  queryFn: ({ signal }) => getAuditUsers(signal),
  staleTime: 60_000,
});

export const auditDevicesQueryOptions = queryOptions({
  queryKey: [...queryKeys.devices, 'include-retired'] as const,
  queryFn: ({ signal }) => getAuditDevices(signal),
  staleTime: 60_000,
});

export function useAuditFilterOptions() {
  const users = useQuery(auditUsersQueryOptions);
  const devices = useQuery(auditDevicesQueryOptions);
  return { users: Array.isArray(users.data) ? users.data : [], devices: Array.isArray(devices.data) ? devices.data : [] };
}
