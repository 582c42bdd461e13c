/**
 * The signed-in user's profile in localStorage, so a reload can paint the right menu at once while
 * /auth/me confirms the session. The cookie is the credential; this never holds a secret.
 */
import { isRole, SESSION_STORAGE_KEY, type User } from '@agua/shared';

export type SessionProfile = Pick<User, 'id' | 'username' | 'role' | 'name' | 'permissions'>;

export function toProfile(user: User | SessionProfile): SessionProfile {
  return { id: user.id, username: user.username, role: user.role, name: user.name, permissions: [...user.permissions] };
}

export function readProfile(): SessionProfile | null {
  try {
    const raw = localStorage.getItem(SESSION_STORAGE_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<SessionProfile>;
    if (typeof value.id !== 'string' || typeof value.username !== 'string' || !isRole(value.role)) return null;
    return {
      id: value.id,
      username: value.username,
      role: value.role,
      name: typeof value.name === 'string' ? value.name : value.username,
      permissions: Array.isArray(value.permissions) ? value.permissions : [],
    };
  } catch {
    return null;
  }
}

export function writeProfile(user: User | SessionProfile): void {
  try {
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(toProfile(user)));
  } catch {
    // Storage full or disabled: the session still works, only reload-restore is lost.
  }
}

export function clearProfile(): void {
  try {
    localStorage.removeItem(SESSION_STORAGE_KEY);
  } catch {
    // Nothing to clear.
  }
}
