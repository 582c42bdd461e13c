import { useState, type FormEvent } from 'react';
import { ShieldOff } from 'lucide-react';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { fieldAria, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { isApiError } from '@/lib/api-client';
import { useTotpDisable } from '../api/two-factor';

/**
 * 'Desactivar' asks the password and a code (of the app, or a recovery code). The server's refusal
 * is shown in the dialog; 409 TOTP_REQUIRED_BY_ROLE closes it and the section says why instead.
 */
export function DisableTwoFactorDialog({
  open,
  onOpenChange,
  onDisabled,
  onRequiredByRole,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDisabled: () => void;
  onRequiredByRole: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="totp-disable-dialog" className="max-h-[calc(100dvh-2rem)] overflow-y-auto" onInteractOutside={(e) => e.preventDefault()}>
        {open ? <DisableForm onClose={() => onOpenChange(false)} onDisabled={onDisabled} onRequiredByRole={onRequiredByRole} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function DisableForm({ onClose, onDisabled, onRequiredByRole }: { onClose: () => void; onDisabled: () => void; onRequiredByRole: () => void }) {
  const disable = useTotpDisable();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [formError, setFormError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (disable.isPending) return;
    setFormError(null);
    try {
      await disable.mutateAsync({ password, code: code.trim() });
      onDisabled();
      onClose();
    } catch (error) {
      if (isApiError(error) && error.code === 'TOTP_REQUIRED_BY_ROLE') {
        onRequiredByRole();
        onClose();
        return;
      }
      setFormError(error instanceof Error ? error.message : String(error));
      setCode('');
    }
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-4" aria-busy={disable.isPending}>
      <DialogHeader>
        <DialogTitle>¿Desactivar la verificación en dos pasos?</DialogTitle>
        <DialogDescription>Para entrar bastará de nuevo con la contraseña. Confirme con su contraseña y un código de la aplicación.</DialogDescription>
      </DialogHeader>
      <FormField id="totp-disable-password" label="Contraseña">
        <Input {...fieldAria('totp-disable-password', {})} type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      </FormField>
      <FormField id="totp-disable-code" label="Código de verificación" hint="El código de 6 dígitos de la aplicación, o uno de sus códigos de recuperación.">
        <Input
          {...fieldAria('totp-disable-code', { hint: true })}
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={64}
          required
          className="font-mono tracking-wider"
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </FormField>
      <FormDialogFooter error={formError} pending={disable.isPending} onCancel={onClose} icon={<ShieldOff aria-hidden="true" />} label="Desactivar" pendingLabel="Desactivando..." />
    </form>
  );
}
