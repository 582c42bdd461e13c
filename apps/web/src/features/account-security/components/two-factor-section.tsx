import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ShieldCheck, ShieldOff, Smartphone } from 'lucide-react';
import { ERROR_MESSAGES, type TotpSetup } from '@agua/shared';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { getMe } from '@/features/auth/api/get-me';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { queryKeys } from '@/lib/query-keys';
import { useSettings } from '../api/settings';
import { useTotpSetup } from '../api/two-factor';
import { DisableTwoFactorDialog } from './disable-two-factor-dialog';
import { EnableTwoFactor } from './enable-two-factor';
import { RecoveryCodes } from './recovery-codes';

type Stage = { kind: 'status' } | { kind: 'setup'; setup: TotpSetup } | { kind: 'codes'; codes: string[]; wasGated: boolean };

/**
 * 'Verificación en dos pasos': its state, 'Activar' (QR code, first code, the recovery codes shown
 * once) and 'Desactivar' (password and code), which is not offered when the role requires it.
 * Whether it does is known to administrators (GET /settings); to others once they had to enrol or
 * the server answered 409 TOTP_REQUIRED_BY_ROLE (until sign-out).
 */
export function TwoFactorSection() {
  const { user, syncUser } = useAuth();
  const navigate = useNavigate();
  const setupMutation = useTotpSetup();
  const [stage, setStage] = useState<Stage>({ kind: 'status' });
  const [disableOpen, setDisableOpen] = useState(false);
  const isAdmin = user?.role === 'admin';
  const settings = useSettings(isAdmin && user?.mustEnrolTotp !== true);
  const queryClient = useQueryClient();
  const learntRequired = useQuery({ queryKey: queryKeys.totpRequiredByRole, queryFn: () => false, initialData: false, enabled: false, staleTime: Infinity }).data;
  const setLearntRequired = () => queryClient.setQueryData(queryKeys.totpRequiredByRole, true);
  const mustEnrol = user?.mustEnrolTotp === true;
  useEffect(() => {
    if (mustEnrol) queryClient.setQueryData(queryKeys.totpRequiredByRole, true);
  }, [mustEnrol, queryClient]);
  if (!user) return null;
  const requiredByRole = learntRequired || user.mustEnrolTotp || (settings.data?.totpRequiredRoles.includes(user.role) ?? false);
  const enabled = user.totpEnabled;

  async function start() {
    try {
      setStage({ kind: 'setup', setup: await setupMutation.mutateAsync() });
    } catch (error) {
      toast({ title: 'No se pudo empezar la activación', description: error instanceof Error ? error.message : String(error), variant: 'destructive' });
    }
  }

  async function refreshUser() {
    try {
      syncUser(await getMe());
    } catch {
      // The next /auth/me or live hello brings it.
    }
  }

  async function onEnabled(codes: string[]) {
    const wasGated = user?.mustEnrolTotp === true;
    // The codes first: they are shown only this once, whatever the refresh does.
    setStage({ kind: 'codes', codes, wasGated });
    toast({ title: 'Verificación en dos pasos activada', description: 'Desde ahora se le pedirá un código de la aplicación al iniciar sesión.', variant: 'success' });
    await refreshUser();
  }

  async function onDisabled() {
    toast({ title: 'Verificación en dos pasos desactivada', description: 'Para entrar bastará con la contraseña.', variant: 'success' });
    await refreshUser();
  }

  return (
    <Card className="p-5 sm:p-6">
      <section aria-labelledby="two-factor-title" className="grid gap-4" data-testid="two-factor-section">
        <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between sm:gap-3">
          <div className="min-w-0 sm:flex-1">
            <h2 id="two-factor-title" className="flex items-center gap-2 text-lg font-semibold">
              <Smartphone aria-hidden="true" className="size-5 text-primary" />
              Verificación en dos pasos
            </h2>
            <p className="mt-1 text-sm text-muted-foreground">Además de la contraseña, un código de 6 dígitos de una aplicación de su teléfono que cambia cada 30 segundos.</p>
          </div>
          <Badge tone={enabled ? 'ok' : 'off'} data-testid="two-factor-state">
            {enabled ? <ShieldCheck aria-hidden="true" /> : <ShieldOff aria-hidden="true" />}
            {enabled ? 'Activada' : 'Desactivada'}
          </Badge>
        </div>

        {stage.kind === 'setup' ? (
          <EnableTwoFactor setup={stage.setup} onEnabled={(codes) => void onEnabled(codes)} onCancel={user.mustEnrolTotp ? undefined : () => setStage({ kind: 'status' })} />
        ) : stage.kind === 'codes' ? (
          <RecoveryCodes
            codes={stage.codes}
            username={user.username}
            doneLabel={stage.wasGated ? 'Continuar al panel' : 'He guardado los códigos'}
            onDone={() => {
              setStage({ kind: 'status' });
              if (stage.wasGated) navigate('/', { replace: true });
            }}
          />
        ) : enabled ? (
          requiredByRole ? (
            <p className="rounded-md border bg-muted/40 p-3 text-sm text-muted-foreground" data-testid="two-factor-required">
              {ERROR_MESSAGES.TOTP_REQUIRED_BY_ROLE}
            </p>
          ) : (
            <div className="flex flex-wrap items-center gap-3">
              <Button variant="outline" onClick={() => setDisableOpen(true)}>
                <ShieldOff aria-hidden="true" />
                Desactivar
              </Button>
              <p className="text-xs text-muted-foreground">Pide su contraseña y un código.</p>
            </div>
          )
        ) : (
          <div className="flex flex-wrap items-center gap-3">
            <Button onClick={() => void start()} disabled={setupMutation.isPending}>
              {setupMutation.isPending ? <Spinner /> : <ShieldCheck aria-hidden="true" />}
              Activar
            </Button>
            <p className="text-xs text-muted-foreground">Necesitará su teléfono con una aplicación de autenticación.</p>
          </div>
        )}
      </section>
      <DisableTwoFactorDialog open={disableOpen} onOpenChange={setDisableOpen} onDisabled={() => void onDisabled()} onRequiredByRole={setLearntRequired} />
    </Card>
  );
}
