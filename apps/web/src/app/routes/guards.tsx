import { Navigate, Outlet, useLocation } from 'react-router';
import { FullPageSpinner } from '@/components/ui/spinner';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { AccessDenied } from './access-denied';

const PASSWORD_ROUTE = '/account/password';

/** Signed-in screens: spinner while restoring, /login when signed out, forced password change first. */
export function RequireAuth() {
  const { user, status } = useAuth();
  const location = useLocation();
  if (status === 'restoring') return <FullPageSpinner />;
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if (user.mustChangePassword && location.pathname !== PASSWORD_ROUTE) return <Navigate to={PASSWORD_ROUTE} replace />;
  return <Outlet />;
}

/** /users, /manual, /audit, /notifications and /interlocks: role admin exactly (seed); others get 'Acceso Denegado'. */
export function RequireAdmin() {
  const { user } = useAuth();
  return user?.role === 'admin' ? <Outlet /> : <AccessDenied />;
}
