import { createContext, useContext } from 'react';
import { UI_TEXTS, type LoginBody, type User } from '@agua/shared';
import type { SessionProfile } from '../utils/session-storage';

export interface SessionUser extends SessionProfile {
  /** A temporary password must be changed before anything else (docs/api.md). */
  mustChangePassword: boolean;
  /** Two-factor sign-in (TOTP) is on. */
  totpEnabled: boolean;
  /** The role requires two-factor sign-in and it is off: 'Seguridad de la cuenta' before anything else. */
  mustEnrolTotp: boolean;
}

/** Where a signed-in user lands: a pending password change first, then two-factor enrolment, else the dashboard. */
export const PASSWORD_ROUTE = '/account/password';
export const SECURITY_ROUTE = '/account/security';

export function homeOf(user: Pick<SessionUser, 'mustChangePassword' | 'mustEnrolTotp'>): string {
  if (user.mustChangePassword) return PASSWORD_ROUTE;
  if (user.mustEnrolTotp) return SECURITY_ROUTE;
  return '/';
}

export interface AuthContextValue {
  user: SessionUser | null;
  /** 'restoring' while /auth/me confirms a stored profile at start-up. */
  status: 'restoring' | 'ready';
  login: (credentials: LoginBody) => Promise<User>;
  logout: () => Promise<void>;
  /** Forget the session locally (the server already ended it). */
  endSession: () => void;
  /** Ask the server whether the session is still valid; ends it locally on 401. */
  verifySession: () => Promise<void>;
  /** Take a fresh User from the server (after /auth/me, the live snapshot, a password change). */
  syncUser: (user: User) => void;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error(UI_TEXTS.useAuthOutsideProvider);
  return value;
}
