import { UserPlus } from 'lucide-react';
import type { User } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { PageHeader } from '@/components/page-header';
import { useUsers } from '@/features/users/api/get-users';
import { UserList, type UserAction } from '@/features/users/components/user-list';
import { UsersTiles } from '@/features/users/components/users-tiles';
import { LoadError } from './load-error';

// User management lands in a later issue; until then the seed's notice names action and user.
function notImplemented(action: string, user?: User) {
  toast({
    title: 'Función no implementada',
    description: user ? `Acción "${action}" para el usuario ${user.id} aún no está disponible.` : `Acción "${action}" aún no está disponible.`,
  });
}

export default function UsersRoute() {
  const users = useUsers();
  const list = users.data ?? [];
  return (
    <div className="grid gap-6">
      <PageHeader
        title="Gestión de Usuarios"
        description="Cuentas, roles y permisos de acceso al sistema."
        actions={
          <Button onClick={() => notImplemented('crear')} className="w-full sm:w-auto">
            <UserPlus aria-hidden="true" />
            Nuevo Usuario
          </Button>
        }
      />
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
          <UserList users={list} onAction={(action: UserAction, user: User) => notImplemented(action, user)} />
        </>
      )}
    </div>
  );
}
