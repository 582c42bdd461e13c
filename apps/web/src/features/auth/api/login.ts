import type { LoginBody, User } from '@agua/shared';
import { api } from '@/lib/api-client';

/** POST /auth/login: 200 User (and the session cookie) or an ApiError with the server's code. */
export function postLogin(body: LoginBody): Promise<User> {
  return api.post<User>('/auth/login', body);
}
