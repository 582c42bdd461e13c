import { Mail, Pencil, Trash2 } from 'lucide-react';
import { PERMISSION_LABELS, ROLE_BADGE_NAMES, type Permission, type User } from '@agua/shared';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format';

// The seed's list shows four permission badges; 'manage_devices' is left out to match it.
const LISTED_PERMISSIONS: Permission[] = ['read', 'write', 'delete', 'manage_users'];

export type UserAction = 'editar' | 'eliminar';

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('');
}

export function UserList({ users, onAction }: { users: User[]; onAction: (action: UserAction, user: User) => void }) {
  if (users.length === 0) return <p className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">No hay usuarios.</p>;
  return (
    <ul className="grid gap-3" aria-label="Lista de usuarios">
      {users.map((user) => (
        <li key={user.id} data-testid={`user-row-${user.id}`} className="flex flex-col gap-3 rounded-lg border bg-card p-4 shadow-xs @3xl:flex-row @3xl:items-center">
          <div className="flex min-w-0 flex-1 items-start gap-3">
            <span aria-hidden="true" className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-muted text-sm font-semibold">
              {initials(user.name)}
            </span>
            <div className="min-w-0">
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-semibold">{user.name}</span>
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
              <p className="mt-1 text-xs text-muted-foreground">Último acceso: {user.lastLogin ? formatDateTime(user.lastLogin) : 'Nunca'}</p>
              <div className="mt-2 flex flex-wrap gap-1.5">
                {LISTED_PERMISSIONS.filter((p) => user.permissions.includes(p)).map((p) => (
                  <Badge key={p} tone="outline">
                    {PERMISSION_LABELS[p]}
                  </Badge>
                ))}
              </div>
            </div>
          </div>
          <div className="flex gap-2 @3xl:self-center">
            <Button variant="outline" size="sm" onClick={() => onAction('editar', user)} aria-label={`Editar ${user.name}`}>
              <Pencil aria-hidden="true" />
              Editar
            </Button>
            {user.role !== 'admin' ? (
              <Button variant="outline" size="sm" onClick={() => onAction('eliminar', user)} aria-label={`Eliminar ${user.name}`} className="text-crit-fg">
                <Trash2 aria-hidden="true" />
                Eliminar
              </Button>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}
