import { KeyRound, Mail, Pencil, ShieldCheck, ShieldOff, ShieldX, Trash2, UserCheck, UserX } from 'lucide-react';
import { PERMISSION_LABELS, ROLE_BADGE_NAMES, type Permission, type User } from '@agua/shared';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format';
import type { UserAction } from './user-action-dialogs';

/** A user's two-factor sign-in: on, off, or required by the role and not yet on. */
export function TwoFactorBadge({ user }: { user: Pick<User, 'totpEnabled' | 'mustEnrolTotp'> }) {
  if (user.totpEnabled)
    return (
      <Badge tone="ok">
        <ShieldCheck aria-hidden="true" />
        Activada
      </Badge>
    );
  if (user.mustEnrolTotp)
    return (
      <Badge tone="warn">
        <ShieldX aria-hidden="true" />
        Pendiente de activar
      </Badge>
    );
  return (
    <Badge tone="outline">
      <ShieldOff aria-hidden="true" />
      Desactivada
    </Badge>
  );
}

// The seed's list shows four permission badges; 'manage_devices' is left out to match it.
const LISTED_PERMISSIONS: Permission[] = ['read', 'write', 'delete', 'manage_users'];

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('');
}

interface UserListProps {
  users: User[];
  /** The signed-in admin: their own row offers no deactivation or reset (it would end their session). */
  currentUserId: string | undefined;
  onAction: (action: UserAction, user: User) => void;
}

export function UserList({ users, currentUserId, onAction }: UserListProps) {
  if (users.length === 0) return <p className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">No hay usuarios.</p>;
  return (
    <ul className="grid gap-3" aria-label="Lista de usuarios">
      {users.map((user) => (
        <li key={user.id} data-testid={`user-row-${user.username}`} className="flex flex-col gap-3 rounded-lg border bg-card p-4 shadow-xs @3xl:flex-row @3xl:items-center">
          <div className="flex min-w-0 flex-1 items-start gap-3">
            <span aria-hidden="true" className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-muted text-sm font-semibold">
              {initials(user.name)}
            </span>
            <div className="min-w-0">
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-semibold">{user.name}</span>
                {user.id === currentUserId ? <span className="text-xs text-muted-foreground">(usted)</span> : null}
                <Badge tone="neutral">{ROLE_BADGE_NAMES[user.role]}</Badge>
                <Badge tone={user.status === 'active' ? 'ok' : 'off'}>
                  <span aria-hidden="true" className={user.status === 'active' ? 'size-2 rounded-full bg-ok' : 'size-2 rounded-full bg-off'} />
                  {user.status === 'active' ? 'Activo' : 'Inactivo'}
                </Badge>
              </p>
              <p className="mt-0.5 text-sm text-muted-foreground">@{user.username}</p>
              <p className="flex min-w-0 items-center gap-1 text-sm text-muted-foreground">
                <Mail aria-hidden="true" className="size-3.5 shrink-0" />
                <span className="truncate">{user.email}</span>
              </p>
              <p className="mt-1 text-xs text-muted-foreground">
                Último acceso: {user.lastLogin ? formatDateTime(user.lastLogin) : 'Nunca'}
                {user.mustChangePassword ? ' · Debe cambiar la contraseña' : ''}
              </p>
              <p className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground" data-testid="user-two-factor">
                Verificación en dos pasos: <TwoFactorBadge user={user} />
              </p>
              <div className="mt-2 flex flex-wrap gap-1.5">
                {LISTED_PERMISSIONS.filter((p) => user.permissions.includes(p)).map((p) => (
                  <Badge key={p} tone="outline">
                    {PERMISSION_LABELS[p]}
                  </Badge>
                ))}
              </div>
            </div>
          </div>
          <UserRowActions user={user} isSelf={user.id === currentUserId} onAction={onAction} />
        </li>
      ))}
    </ul>
  );
}

function UserRowActions({ user, isSelf, onAction }: { user: User; isSelf: boolean; onAction: (action: UserAction, user: User) => void }) {
  const active = user.status === 'active';
  return (
    <div className="flex flex-wrap gap-2 @3xl:shrink-0 @3xl:justify-end @3xl:self-center">
      <Button variant="outline" size="sm" onClick={() => onAction('editar', user)} aria-label={`Editar ${user.name}`}>
        <Pencil aria-hidden="true" />
        Editar
      </Button>
      {!isSelf ? (
        <Button variant="outline" size="sm" onClick={() => onAction('estado', user)} aria-label={`${active ? 'Desactivar' : 'Activar'} ${user.name}`}>
          {active ? <UserX aria-hidden="true" /> : <UserCheck aria-hidden="true" />}
          {active ? 'Desactivar' : 'Activar'}
        </Button>
      ) : null}
      {!isSelf ? (
        <Button variant="outline" size="sm" onClick={() => onAction('restablecer', user)} aria-label={`Restablecer contraseña de ${user.name}`}>
          <KeyRound aria-hidden="true" />
          Restablecer contraseña
        </Button>
      ) : null}
      {!isSelf && user.totpEnabled ? (
        <Button variant="outline" size="sm" onClick={() => onAction('restablecer2fa', user)} aria-label={`Restablecer verificación en dos pasos de ${user.name}`}>
          <ShieldOff aria-hidden="true" />
          Restablecer verificación en dos pasos
        </Button>
      ) : null}
      {/* The seed hides delete for admin-role users. */}
      {user.role !== 'admin' ? (
        <Button variant="outline" size="sm" onClick={() => onAction('eliminar', user)} aria-label={`Eliminar ${user.name}`} className="text-crit-fg">
          <Trash2 aria-hidden="true" />
          Eliminar
        </Button>
      ) : null}
    </div>
  );
}
