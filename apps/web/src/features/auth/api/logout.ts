import { api } from '@/lib/api-client';

export function postLogout(): Promise<void> {
  return api.post<void>('/auth/logout');
}
