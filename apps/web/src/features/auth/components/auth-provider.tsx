import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ERROR_MESSAGES, type LoginBody, type User } from '@agua/shared';
import { isApiError, setSessionHandlers } from '@/lib/api-client';
import { stopLive } from '@/lib/live-socket';
import { queryClient } from '@/lib/query-client';
import { toast } from '@/components/ui/use-toast';
import { getMe } from '../api/get-me';
import { postLogin } from '../api/login';
import { postLogout } from '../api/logout';
import { AuthContext, type AuthContextValue, type SessionUser } from '../hooks/use-auth';
import { clearProfile, readProfile, toProfile, writeProfile } from '../utils/session-storage';

function fromUser(user: User): SessionUser {
  return {
    ...toProfile(user),
    mustChangePassword: user.mustChangePassword === true,
    // Absent from an older server: no second factor, nothing to enrol.
    totpEnabled: user.totpEnabled === true,
    mustEnrolTotp: user.mustEnrolTotp === true,
  };
}

/**
 * Owns the signed-in user. The stored profile paints the app immediately after a reload, but a
 * spinner ('Cargando...') stays until GET /auth/me confirms the cookie is still good.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [initialProfile] = useState(readProfile);
  const [user, setUser] = useState<SessionUser | null>(() =>
    initialProfile ? { ...initialProfile, mustChangePassword: false, totpEnabled: false, mustEnrolTotp: false } : null,
  );
  const [status, setStatus] = useState<AuthContextValue['status']>(initialProfile ? 'restoring' : 'ready');
  // Handlers registered once (api-client, live socket) read the current user through this ref.
  const userRef = useRef(user);
  useLayoutEffect(() => {
    userRef.current = user;
  }, [user]);

  const syncUser = useCallback((next: User) => {
    writeProfile(next);
    setUser(fromUser(next));
  }, []);

  const endSession = useCallback(() => {
    const hadUser = userRef.current !== null;
    userRef.current = null;
    stopLive();
    clearProfile();
    queryClient.clear();
    setUser(null);
    if (hadUser) toast({ title: 'Sesión finalizada', description: ERROR_MESSAGES.UNAUTHENTICATED });
  }, []);

  const verifySession = useCallback(async () => {
    try {
      syncUser(await getMe());
    } catch (error) {
      if (isApiError(error) && error.status === 401) endSession();
    }
  }, [endSession, syncUser]);

  // Restore: confirm the stored profile once at start-up.
  useEffect(() => {
    if (!initialProfile) return;
    const controller = new AbortController();
    getMe(controller.signal)
      .then((me) => syncUser(me))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        if (isApiError(error) && error.status === 401) {
          clearProfile();
          setUser(null);
        }
        // Network or server failure: keep the profile; screens show that live data is missing.
      })
      .finally(() => {
        if (!controller.signal.aborted) setStatus('ready');
      });
    return () => controller.abort();
  }, [initialProfile, syncUser]);

  // A 401 on any API call (other than login/me) ends the session in one place.
  useEffect(() => {
    setSessionHandlers({
      unauthorized: () => {
        if (userRef.current) endSession();
      },
      passwordChangeRequired: () => setUser((u) => (u ? { ...u, mustChangePassword: true } : u)),
      totpEnrolmentRequired: () => setUser((u) => (u ? { ...u, mustEnrolTotp: true } : u)),
    });
    return () => setSessionHandlers({ unauthorized: null, passwordChangeRequired: null, totpEnrolmentRequired: null });
  }, [endSession]);

  const login = useCallback(
    async (credentials: LoginBody) => {
      const me = await postLogin(credentials);
      queryClient.clear();
      syncUser(me);
      setStatus('ready');
      return me;
    },
    [syncUser],
  );

  const logout = useCallback(async () => {
    try {
      await postLogout();
    } catch {
      // Already gone on the server, or unreachable: signing out locally is what the user asked.
    }
    // Cleared before the cache so that a late 401 from a query is not taken as a lost session.
    userRef.current = null;
    stopLive();
    clearProfile();
    queryClient.clear();
    setUser(null);
  }, []);

  const value = useMemo<AuthContextValue>(
    () => ({ user, status, login, logout, endSession, verifySession, syncUser }),
    [user, status, login, logout, endSession, verifySession, syncUser],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
