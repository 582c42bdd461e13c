import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface ChangePasswordBody {
  currentPassword: string;
  newPassword: string;
}

export function postChangePassword(body: ChangePasswordBody): Promise<unknown> {
  return api.post<unknown>('/auth/password', body);
}

export function useChangePassword() {
  return useMutation({ mutationFn: postChangePassword });
}
