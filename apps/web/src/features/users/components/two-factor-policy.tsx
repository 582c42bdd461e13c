import { useState, type FormEvent } from 'react';
import { Save, ShieldCheck } from 'lucide-react';
import { ROLE_BADGE_NAMES, ROLES, type Role } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Check, Fieldset } from '@/components/ui/choice';
import { FormAlert } from '@/components/ui/form-alert';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { useSettings, useUpdateSettings } from '@/features/account-security/api/settings';

/** 'Exigir verificación en dos pasos a los roles': the setting totpRequiredRoles, saved with PATCH /settings. */
export function TwoFactorPolicy() {
  const settings = useSettings();
  return (
    <Card className="p-5 sm:p-6">
      <section aria-labelledby="two-factor-policy-title" className="grid gap-4" data-testid="two-factor-policy">
        <div>
          <h2 id="two-factor-policy-title" className="flex items-center gap-2 text-lg font-semibold">
            <ShieldCheck aria-hidden="true" className="size-5 text-primary" />
            Verificación en dos pasos
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">
            Quien tenga un rol marcado y no la haya activado deberá activarla en su próximo inicio de sesión, antes de ver nada más.
          </p>
        </div>
        {settings.isError ? (
          <FormAlert message={settings.error.message} />
        ) : settings.data ? (
          <PolicyForm key={settings.data.totpRequiredRoles.join(',')} saved={settings.data.totpRequiredRoles} />
        ) : (
          <Skeleton className="h-24" aria-hidden="true" />
        )}
      </section>
    </Card>
  );
}

function PolicyForm({ saved }: { saved: Role[] }) {
  const update = useUpdateSettings();
  const [roles, setRoles] = useState<Role[]>(saved);
  const [error, setError] = useState<string | null>(null);
  const dirty = roles.length !== saved.length || roles.some((r) => !saved.includes(r));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    try {
      const next = await update.mutateAsync({ totpRequiredRoles: ROLES.filter((r) => roles.includes(r)) });
      const names = next.totpRequiredRoles.map((r) => ROLE_BADGE_NAMES[r]).join(', ');
      toast({ title: 'Ajustes guardados', description: names ? `La verificación en dos pasos es obligatoria para: ${names}.` : 'Ningún rol está obligado a usar la verificación en dos pasos.', variant: 'success' });
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-4" aria-busy={update.isPending}>
      <Fieldset id="totp-required-roles" legend="Exigir verificación en dos pasos a los roles">
        <div className="grid gap-2 sm:grid-cols-3">
          {ROLES.map((role) => (
            <Check key={role} checked={roles.includes(role)} onChange={(on) => setRoles((now) => (on ? [...now, role] : now.filter((r) => r !== role)))}>
              {ROLE_BADGE_NAMES[role]}
            </Check>
          ))}
        </div>
      </Fieldset>
      <FormAlert message={error} />
      <Button type="submit" className="w-fit" disabled={!dirty || update.isPending}>
        {update.isPending ? <Spinner /> : <Save aria-hidden="true" />}
        {update.isPending ? 'Guardando...' : 'Guardar'}
      </Button>
    </form>
  );
}
