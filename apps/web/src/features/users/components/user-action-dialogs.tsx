import type { User } from '@agua/shared';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/use-toast';
import { isApiError } from '@/lib/api-client';
import { useDeleteUser } from '../api/delete-user';
import { useResetUserTotp } from '../api/reset-user-totp';
import { useUpdateUser } from '../api/update-user';
import { EditUserDialog } from './edit-user-dialog';
import { ResetPasswordDialog } from './reset-password-dialog';

export type UserAction = 'editar' | 'estado' | 'restablecer' | 'restablecer2fa' | 'eliminar';

export interface ActiveUserAction {
  action: UserAction;
  user: User;
}

function failureToast(title: string, error: unknown) {
  // LAST_ADMIN and the like: the server's Spanish text says exactly why.
  const description = isApiError(error) || error instanceof Error ? error.message : String(error);
  toast({ title: isApiError(error) && error.code === 'LAST_ADMIN' ? 'Acción no permitida' : title, description, variant: 'destructive' });
}

/** The dialogs behind the row buttons of the users list; one is open at a time. */
export function UserActionDialogs({ active, currentUserId, onClose }: { active: ActiveUserAction | null; currentUserId: string | undefined; onClose: () => void }) {
  const update = useUpdateUser();
  const remove = useDeleteUser();
  const resetTotp = useResetUserTotp();
  const pick = (action: UserAction) => (active?.action === action ? active.user : null);
  const closeOn = (open: boolean) => {
    if (!open) onClose();
  };

  const statusUser = pick('estado');
  const deactivating = statusUser?.status === 'active';
  const deleteUser = pick('eliminar');
  const totpUser = pick('restablecer2fa');

  function confirmResetTotp() {
    if (!totpUser) return;
    const { name, username } = totpUser;
    resetTotp.mutate(totpUser.id, {
      onSuccess: () =>
        toast({
          title: 'Verificación en dos pasos restablecida',
          description: `${name} (@${username}) entrará solo con su contraseña hasta que la active de nuevo; sus sesiones abiertas se han cerrado.`,
          variant: 'success',
        }),
      onError: (error) => failureToast('No se pudo restablecer la verificación en dos pasos', error),
    });
  }

  function toggleStatus() {
    if (!statusUser) return;
    const status = deactivating ? 'inactive' : 'active';
    update.mutate(
      { userId: statusUser.id, changes: { status } },
      {
        onSuccess: (user) =>
          toast({
            title: 'Usuario actualizado',
            description: `${user.name} (@${user.username}) está ahora ${status === 'active' ? 'activo' : 'inactivo'}.`,
            variant: 'success',
          }),
        onError: (error) => failureToast('No se pudo cambiar el estado', error),
      },
    );
  }

  function confirmDelete() {
    if (!deleteUser) return;
    const { name, username } = deleteUser;
    remove.mutate(deleteUser.id, {
      onSuccess: () => toast({ title: 'Usuario eliminado', description: `${name} (@${username}) ya no puede acceder al sistema.`, variant: 'success' }),
      onError: (error) => failureToast('No se pudo eliminar el usuario', error),
    });
  }

  return (
    <>
      <EditUserDialog user={pick('editar')} isSelf={pick('editar')?.id === currentUserId} onOpenChange={closeOn} />
      <ResetPasswordDialog user={pick('restablecer')} onOpenChange={closeOn} />
      <ConfirmDialog
        open={statusUser !== null}
        onOpenChange={closeOn}
        title={deactivating ? '¿Desactivar usuario?' : '¿Activar usuario?'}
        description={
          statusUser
            ? deactivating
              ? `${statusUser.name} (@${statusUser.username}) no podrá iniciar sesión y sus sesiones abiertas se cerrarán al instante. Podrá activarlo de nuevo cuando quiera.`
              : `${statusUser.name} (@${statusUser.username}) podrá volver a iniciar sesión con su contraseña.`
            : undefined
        }
        confirmLabel={deactivating ? 'Desactivar' : 'Activar'}
        destructive={deactivating}
        onConfirm={toggleStatus}
      />
      <ConfirmDialog
        open={totpUser !== null}
        onOpenChange={closeOn}
        title="¿Restablecer la verificación en dos pasos?"
        description={
          totpUser
            ? `Para un teléfono perdido: se desactivará la verificación en dos pasos de ${totpUser.name} (@${totpUser.username}), se borrarán sus códigos de recuperación y sus sesiones abiertas se cerrarán al instante. Podrá activarla de nuevo en «Seguridad de la cuenta» (si su rol la exige, al iniciar sesión).`
            : undefined
        }
        confirmLabel="Restablecer"
        destructive
        onConfirm={confirmResetTotp}
      />
      <ConfirmDialog
        open={deleteUser !== null}
        onOpenChange={closeOn}
        title="¿Eliminar usuario?"
        description={
          deleteUser
            ? `Se eliminará la cuenta de ${deleteUser.name} (@${deleteUser.username}) y se cerrarán sus sesiones. Esta acción no se puede deshacer; su rastro en la auditoría se conserva.`
            : undefined
        }
        confirmLabel="Eliminar"
        destructive
        onConfirm={confirmDelete}
      />
    </>
  );
}
