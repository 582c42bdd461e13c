import { Navigate, Outlet, useLocation } from 'react-router';
import { FullPageSpinner } from '@/components/ui/spinner';
import { PASSWORD_ROUTE, SECURITY_ROUTE, useAuth } from '@/features/auth/hooks/use-auth';
import { AccessDenied } from './access-denied';

/**
 * Signed-in screens: spinner while restoring, /login when signed out, forced password change
 * first, then two-factor enrolment when the role requires it ('Seguridad de la cuenta' only).
 */
export function RequireAuth() {
  const { user, status } = useAuth();
  const location = useLocation();
  if (status === 'restoring') return <FullPageSpinner />;
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if (user.mustChangePassword && location.pathname !== PASSWORD_ROUTE) return <Navigate to={PASSWORD_ROUTE} replace />;
  if (!user.mustChangePassword && user.mustEnrolTotp && location.pathname !== SECURITY_ROUTE) return <Navigate to={SECURITY_ROUTE} replace />;
  return <Outlet />;
}

/** /users, /manual, /audit, /notifications and /interlocks: role admin exactly (seed); others get 'Acceso Denegado'. */
export function RequireAdmin() {
  const { user } = useAuth();
  return user?.role === 'admin' ? <Outlet /> : <AccessDenied />;
}
