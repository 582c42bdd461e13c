import { useState } from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import { PageHeader } from '@/components/page-header';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { useUsers } from '@/features/users/api/get-users';
import { NewUserDialog } from '@/features/users/components/new-user-dialog';
import { TwoFactorPolicy } from '@/features/users/components/two-factor-policy';
import { UserActionDialogs, type ActiveUserAction } from '@/features/users/components/user-action-dialogs';
import { UserList } from '@/features/users/components/user-list';
import { UsersTiles } from '@/features/users/components/users-tiles';
import { LoadError } from '@/components/load-error';

export default function UsersRoute() {
  const { user: me } = useAuth();
  const users = useUsers();
  const list = users.data ?? [];
  const [active, setActive] = useState<ActiveUserAction | null>(null);
  return (
    <div className="grid gap-6">
      <PageHeader title="Gestión de Usuarios" description="Cuentas, roles y permisos de acceso al sistema." actions={<NewUserDialog />} />
      {users.isError ? <LoadError message={users.error.message} onRetry={() => void users.refetch()} /> : null}
      {users.isPending ? (
        <div className="grid gap-3" aria-hidden="true">
          <Skeleton className="h-20" />
          <Skeleton className="h-28" />
          <Skeleton className="h-28" />
        </div>
      ) : (
        <>
          <UsersTiles users={list} />
          <UserList users={list} currentUserId={me?.id} onAction={(action, user) => setActive({ action, user })} />
        </>
      )}
      {users.isPending ? null : (
        <TwoFactorPolicy />
      )}
      <UserActionDialogs active={active} currentUserId={me?.id} onClose={() => setActive(null)} />
    </div>
  );
}
