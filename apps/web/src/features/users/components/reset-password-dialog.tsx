import { useState, type FormEvent } from 'react';
import { KeyRound } from 'lucide-react';
import type { User } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { focusFirstError } from '@/components/ui/form-field';
import { toast } from '@/components/ui/use-toast';
import { useResetUserPassword } from '../api/reset-user-password';
import { fieldOfApiError } from '../utils/user-errors';
import { validatePassword } from '../utils/validate-user';
import { TemporaryPasswordField } from './temporary-password-field';
import { TemporaryPasswordResult } from './temporary-password-result';

const ID = 'reset-password';

/** 'Restablecer contraseña': a new temporary password, typed or generated; shown once. */
export function ResetPasswordDialog({ user, onOpenChange }: { user: User | null; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={user !== null} onOpenChange={onOpenChange}>
      <DialogContent data-testid="reset-password-dialog" className="max-h-[calc(100dvh-2rem)] max-w-lg overflow-y-auto" onInteractOutside={(e) => e.preventDefault()}>
        {user ? <ResetPasswordForm user={user} onClose={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function ResetPasswordForm({ user, onClose }: { user: User; onClose: () => void }) {
  const mutation = useResetUserPassword();
  const [password, setPassword] = useState('');
  const [generated, setGenerated] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const problem = validatePassword(password, user.username);
    setError(problem);
    if (problem) return focusFirstError(ID, ['password'], { password: problem });
    try {
      await mutation.mutateAsync({ userId: user.id, password });
      toast({ title: 'Contraseña restablecida', description: `@${user.username} deberá cambiarla al iniciar sesión; sus sesiones abiertas se han cerrado.`, variant: 'success' });
      if (generated) setDone(true);
      else onClose();
    } catch (err) {
      const field = fieldOfApiError(err);
      if (field?.field === 'password') {
        setError(field.message);
        focusFirstError(ID, ['password'], { password: field.message });
      } else {
        setFormError(err instanceof Error ? err.message : String(err));
      }
    }
  }

  if (done) {
    return (
      <>
        <DialogHeader>
          <DialogTitle>Contraseña restablecida</DialogTitle>
          <DialogDescription>Entregue la nueva contraseña temporal a {user.name}.</DialogDescription>
        </DialogHeader>
        <TemporaryPasswordResult username={user.username} password={password} />
        <DialogFooter>
          <Button onClick={onClose}>He copiado la contraseña</Button>
        </DialogFooter>
      </>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-busy={mutation.isPending}>
      <DialogHeader>
        <DialogTitle>Restablecer contraseña</DialogTitle>
        <DialogDescription>
          {user.name} (<span className="font-mono">@{user.username}</span>) recibirá una contraseña temporal. Sus sesiones abiertas se cerrarán al instante.
        </DialogDescription>
      </DialogHeader>
      <TemporaryPasswordField
        id={`${ID}-password`}
        label="Nueva contraseña temporal"
        value={password}
        generated={generated}
        onChange={(value, isGenerated) => (setPassword(value), setGenerated(isGenerated), setError(undefined))}
        error={error}
      />
      <FormDialogFooter
        error={formError}
        pending={mutation.isPending}
        onCancel={onClose}
        icon={<KeyRound aria-hidden="true" />}
        label="Restablecer contraseña"
        pendingLabel="Restableciendo..."
      />
    </form>
  );
}
