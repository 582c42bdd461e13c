import { useEffect, useRef, useState, type FormEvent } from 'react';
import { QRCodeSVG } from 'qrcode.react';
import type { TotpSetup } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { fieldAria, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { useTotpEnable } from '../api/two-factor';
import { accountOfOtpauthUrl, groupSecret } from '../utils/two-factor-texts';

/**
 * Step two of turning two-factor sign-in on: the QR code of the secret (and the secret as text, in
 * groups of four, for typing by hand), then the app's first code. A wrong code is the server's
 * 'Código de verificación incorrecto' at the field.
 */
export function EnableTwoFactor({ setup, onEnabled, onCancel }: { setup: TotpSetup; onEnabled: (recoveryCodes: string[]) => void; onCancel?: () => void }) {
  const enable = useTotpEnable();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const account = accountOfOtpauthUrl(setup.otpauthUrl);
  const grouped = groupSecret(setup.secret);

  useEffect(() => {
    codeRef.current?.focus({ preventScroll: true });
  }, [setup.secret]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (enable.isPending) return;
    const digits = code.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(digits)) {
      setError('Escriba los 6 dígitos que muestra la aplicación.');
      codeRef.current?.focus();
      return;
    }
    setError(null);
    try {
      const { recoveryCodes } = await enable.mutateAsync(digits);
      onEnabled(recoveryCodes);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
      setCode('');
      codeRef.current?.focus();
    }
  }

  return (
    <div className="grid gap-5" data-testid="totp-setup">
      <ol className="grid list-decimal gap-1 pl-5 text-sm text-muted-foreground">
        <li>Abra una aplicación de autenticación en su teléfono (Google Authenticator, Microsoft Authenticator, FreeOTP, Aegis…).</li>
        <li>Escanee este código QR, o escriba la clave a mano.</li>
        <li>Escriba el código de 6 dígitos que muestra la aplicación.</li>
      </ol>
      <div className="grid gap-4 sm:grid-cols-[auto_minmax(0,1fr)] sm:items-center">
        {/* Dark modules on white in both themes: phones' cameras read it best so. */}
        <div className="w-fit justify-self-center rounded-lg border bg-white p-3 sm:justify-self-start">
          <QRCodeSVG
            value={setup.otpauthUrl}
            size={184}
            level="M"
            marginSize={0}
            bgColor="#ffffff"
            fgColor="#0f172a"
            role="img"
            aria-label={account ? `Código QR para la aplicación de autenticación (${account})` : 'Código QR para la aplicación de autenticación'}
            data-testid="totp-qr"
          />
        </div>
        <div className="grid min-w-0 gap-2">
          <p className="text-sm font-medium" id="totp-secret-label">
            ¿No puede escanearlo? Escriba esta clave:
          </p>
          <div className="flex items-center gap-2">
            <code aria-labelledby="totp-secret-label" data-testid="totp-secret" className="min-w-0 flex-1 rounded-md border bg-muted/50 px-3 py-2 font-mono text-sm select-all">
              {/* A line breaks between groups, never inside one. */}
              {grouped.split(' ').map((group, i) => (
                <span key={i}>
                  {i > 0 ? ' ' : ''}
                  <span className="inline-block whitespace-nowrap">{group}</span>
                </span>
              ))}
            </code>
            <CopyButton text={setup.secret} label="Copiar clave" />
          </div>
          <p className="text-xs text-muted-foreground">Tipo: basada en el tiempo (TOTP), 6 dígitos cada 30 segundos.</p>
        </div>
      </div>
      <form onSubmit={onSubmit} className="grid gap-4" aria-busy={enable.isPending} noValidate>
        <FormField id="totp-enable-code" label="Código de verificación" error={error} hint="El código cambia cada 30 segundos.">
          <Input
            ref={codeRef}
            {...fieldAria('totp-enable-code', { hint: true, error })}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={8}
            className="max-w-48 font-mono tracking-wider"
            value={code}
            onChange={(e) => {
              setCode(e.target.value);
              setError(null);
            }}
          />
        </FormField>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={enable.isPending}>
            {enable.isPending ? <Spinner /> : null}
            {enable.isPending ? 'Verificando...' : 'Activar verificación'}
          </Button>
          {onCancel ? (
            <Button variant="outline" onClick={onCancel} disabled={enable.isPending}>
              Cancelar
            </Button>
          ) : null}
        </div>
      </form>
    </div>
  );
}
