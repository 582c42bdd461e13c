import { useAuth } from '@/features/auth/hooks/use-auth';
import { useLiveConnection } from '@/features/live/hooks/use-live-connection';

/**
 * Keeps the live socket open for a signed-in layout (the app shell, the control-room view) and
 * returns whether it may be: the server refuses it while a password change is pending (docs/api.md)
 * and while two-factor sign-in must still be turned on (docs/security.md).
 */
export function useSignedInLive(): boolean {
  const { user, endSession, verifySession, syncUser } = useAuth();
  const liveEnabled = user !== null && !user.mustChangePassword && !user.mustEnrolTotp;
  useLiveConnection(liveEnabled, {
    onSessionEnded: endSession,
    onConnectFailed: () => void verifySession(),
    onUser: syncUser,
  });
  return liveEnabled;
}
