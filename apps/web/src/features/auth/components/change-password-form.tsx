import { useState, type FormEvent } from 'react';
import { ERROR_MESSAGES, passwordPolicyError, PASSWORD_MIN_LENGTH } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { useChangePassword } from '../api/change-password';
import { getMe } from '../api/get-me';
import { useAuth } from '../hooks/use-auth';

/** Change one's own password; required before anything else when the password is temporary. */
export function ChangePasswordForm({ onDone }: { onDone: () => void }) {
  const { user, syncUser } = useAuth();
  const mutation = useChangePassword();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const policy = passwordPolicyError(user?.username ?? '', newPassword);
    if (policy) return setProblem(ERROR_MESSAGES[policy]);
    if (newPassword !== confirmPassword) return setProblem('Las contraseñas nuevas no coinciden.');
    setProblem(null);
    try {
      await mutation.mutateAsync({ currentPassword, newPassword });
      // The server cleared mustChangePassword; take the fresh user so the app unlocks.
      syncUser(await getMe());
      toast({ title: 'Contraseña Actualizada', description: 'Su contraseña ha sido cambiada.', variant: 'success' });
      onDone();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      toast({ title: 'No se pudo cambiar la contraseña', description: message, variant: 'destructive' });
    }
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-4" aria-busy={mutation.isPending}>
      <div className="grid gap-2">
        <Label htmlFor="current-password">Contraseña actual</Label>
        <Input id="current-password" type="password" autoComplete="current-password" required value={currentPassword} onChange={(e) => setCurrentPassword(e.target.value)} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="new-password">Nueva contraseña</Label>
        <Input
          id="new-password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          aria-describedby="new-password-hint"
          value={newPassword}
          onChange={(e) => setNewPassword(e.target.value)}
        />
        <p id="new-password-hint" className="text-xs text-muted-foreground">
          Al menos {PASSWORD_MIN_LENGTH} caracteres y distinta del nombre de usuario.
        </p>
      </div>
      <div className="grid gap-2">
        <Label htmlFor="confirm-password">Confirmar nueva contraseña</Label>
        <Input id="confirm-password" type="password" autoComplete="new-password" required value={confirmPassword} onChange={(e) => setConfirmPassword(e.target.value)} />
      </div>
      {problem ? (
        <p role="alert" className="text-sm font-medium text-crit-fg">
          {problem}
        </p>
      ) : null}
      <Button type="submit" disabled={mutation.isPending} className="w-full sm:w-fit">
        {mutation.isPending ? <Spinner /> : null}
        {mutation.isPending ? 'Guardando...' : 'Cambiar Contraseña'}
      </Button>
    </form>
  );
}
