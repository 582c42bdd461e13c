import { NavLink, useNavigate } from 'react-router';
import { Bell, KeyRound, LockKeyhole, LogOut, Waves, type LucideIcon } from 'lucide-react';
import { can, PRODUCT_NAME, ROLE_DISPLAY_NAMES } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { useAlarmMenuCount } from '@/features/alarms/components/alarm-menu-count';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { turnPushOff } from '@/features/notifications/api/push-subscription';
import { cn } from '@/lib/utils';
import { NAV_ITEMS } from './nav-items';

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((p) => p[0]?.toUpperCase() ?? '')
    .join('');
}

/** One of the account's own screens at the foot of the menu. */
function AccountLink({ to, icon: Icon, label, onNavigate }: { to: string; icon: LucideIcon; label: string; onNavigate?: () => void }) {
  return (
    <NavLink
      to={to}
      onClick={onNavigate}
      className={({ isActive }) =>
        cn('flex h-11 items-center gap-3 rounded-md px-3 text-sm font-medium text-muted-foreground hover:bg-accent hover:text-foreground', isActive && 'text-primary')
      }
    >
      <Icon aria-hidden="true" className="size-4" />
      {label}
    </NavLink>
  );
}

/**
 * Product name, who is signed in, the menu by permission, the account's screens and 'Cerrar
 * Sesión'. While a password change is pending the menu is hidden; while two-factor sign-in must be
 * turned on only 'Seguridad de la cuenta' and 'Cerrar Sesión' are left (the server refuses the rest).
 */
export function Sidebar({ onNavigate }: { onNavigate?: () => void }) {
  const { user, logout } = useAuth();
  const navigate = useNavigate();
  const enrolling = user !== null && !user.mustChangePassword && user.mustEnrolTotp;
  const locked = user === null || user.mustChangePassword || user.mustEnrolTotp;
  const alarmCount = useAlarmMenuCount(!locked);
  if (!user) return null;

  async function onLogout() {
    onNavigate?.();
    // A browser left signed out receives no more alarms: its push subscription goes first, while the session can still delete it.
    await turnPushOff().catch(() => undefined);
    await logout();
    navigate('/login', { replace: true });
  }

  return (
    <div className="flex h-full flex-col">
      <div className={cn('flex h-16 items-center gap-3 border-b px-5', onNavigate && 'pr-16')}>
        <span className="inline-flex size-9 items-center justify-center rounded-lg bg-primary text-primary-foreground">
          <Waves aria-hidden="true" className="size-5" />
        </span>
        <span className="text-sm leading-tight font-semibold">{PRODUCT_NAME}</span>
      </div>

      <div className="flex items-center gap-3 px-5 py-4">
        <span aria-hidden="true" className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-muted text-sm font-semibold">
          {initials(user.name)}
        </span>
        <div className="min-w-0">
          <p className="truncate text-sm font-semibold">{user.name}</p>
          <p className="truncate text-xs text-muted-foreground">{ROLE_DISPLAY_NAMES[user.role]}</p>
        </div>
      </div>

      <nav aria-label="Navegación principal" className="flex-1 overflow-y-auto px-3">
        {locked ? null : (
          <ul className="grid gap-1">
            {NAV_ITEMS.filter((item) => can(user, item.permission)).map(({ to, label, icon: Icon }) => (
              <li key={to} className="relative">
                <NavLink
                  to={to}
                  end={to === '/'}
                  onClick={onNavigate}
                  aria-describedby={to === '/alarms' ? alarmCount.describedBy : undefined}
                  className={({ isActive }) =>
                    cn(
                      'flex h-11 items-center gap-3 rounded-md px-3 text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-foreground',
                      isActive && 'bg-primary/10 text-primary hover:bg-primary/15 hover:text-primary',
                    )
                  }
                >
                  <Icon aria-hidden="true" className="size-4" />
                  {label}
                </NavLink>
                {/* Beside the link, not in it: the link's text stays its name ('Alarmas'). */}
                {to === '/alarms' ? alarmCount.badge : null}
              </li>
            ))}
          </ul>
        )}
      </nav>

      <div className="grid gap-1 border-t p-3">
        {enrolling ? null : <AccountLink to="/account/notifications" icon={Bell} label="Mis notificaciones" onNavigate={onNavigate} />}
        {enrolling ? null : <AccountLink to="/account/password" icon={KeyRound} label="Cambiar Contraseña" onNavigate={onNavigate} />}
        <AccountLink to="/account/security" icon={LockKeyhole} label="Seguridad de la cuenta" onNavigate={onNavigate} />
        <Button variant="ghost" onClick={onLogout} className="justify-start gap-3 px-3 text-muted-foreground">
          <LogOut aria-hidden="true" />
          Cerrar Sesión
        </Button>
      </div>
    </div>
  );
}
