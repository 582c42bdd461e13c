import type { User } from '@agua/shared';
import { api } from '@/lib/api-client';

/** GET /auth/me: the signed-in user, or ApiError 401 (never handled centrally). */
export function getMe(signal?: AbortSignal): Promise<User> {
  return api.get<User>('/auth/me', undefined, signal);
}
