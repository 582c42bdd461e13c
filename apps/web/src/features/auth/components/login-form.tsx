import { useRef, useState, type FormEvent, type Ref } from 'react';
import { useNavigate } from 'react-router';
import { Eye, EyeOff, KeyRound, LogIn, ShieldCheck } from 'lucide-react';
import { UI_TEXTS } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { isApiError } from '@/lib/api-client';
import { homeOf, useAuth } from '../hooks/use-auth';
import { DemoAccounts, type DemoAccount } from './demo-accounts';

// The seed shows the master-password field while the username is exactly 'admin'.
const SEED_ADMIN_USERNAME = 'admin';

/** The second step of sign-in (docs/security.md "Two-factor sign-in"): a code of the app, or a recovery code. */
type SecondFactor = 'totp' | 'recovery';

export function LoginForm({ showDemoAccounts }: { showDemoAccounts: boolean }) {
  const { login } = useAuth();
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [masterPassword, setMasterPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  // The server may ask for a master password for any admin-role account, not only 'admin'.
  const [masterRequiredFor, setMasterRequiredFor] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const masterRef = useRef<HTMLInputElement>(null);
  // Asked for after 401 TOTP_REQUIRED, for the username that got it; what was typed above stays.
  const [secondFactor, setSecondFactor] = useState<{ username: string; kind: SecondFactor } | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const codeRef = useRef<HTMLInputElement>(null);

  const showMaster = username === SEED_ADMIN_USERNAME || (masterRequiredFor !== null && masterRequiredFor === username);
  const factor = secondFactor !== null && secondFactor.username === username ? secondFactor.kind : null;

  function askSecondFactor(kind: SecondFactor) {
    setSecondFactor({ username, kind });
    setCode('');
    setCodeError(null);
    // Wait for the field to render before moving focus to it.
    requestAnimationFrame(() => codeRef.current?.focus());
  }

  function secondFactorBody() {
    if (factor === 'totp') return { totpCode: code.replace(/\s+/g, '') };
    if (factor === 'recovery') return { recoveryCode: code.trim() };
    return {};
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    try {
      const me = await login({ username, password, ...(showMaster ? { masterPassword } : {}), ...secondFactorBody() });
      toast({ title: UI_TEXTS.loginSuccessTitle, description: UI_TEXTS.loginSuccessDescription, variant: 'success' });
      navigate(homeOf({ mustChangePassword: me.mustChangePassword, mustEnrolTotp: me.mustEnrolTotp === true }), { replace: true });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // The second step is asked for, or its code refused: said at the field, not in a toast.
      if (isApiError(error) && (error.code === 'TOTP_REQUIRED' || error.code === 'TOTP_INVALID')) {
        if (factor === null) askSecondFactor('totp');
        else {
          setCode('');
          requestAnimationFrame(() => codeRef.current?.focus());
        }
        setCodeError(error.code === 'TOTP_INVALID' ? message : null);
        setPending(false);
        return;
      }
      if (isApiError(error) && error.code === 'MASTER_PASSWORD_REQUIRED') {
        setMasterRequiredFor(username);
        // Wait for the field to render before moving focus to it.
        requestAnimationFrame(() => masterRef.current?.focus());
      }
      toast({ title: UI_TEXTS.loginErrorTitle, description: message, variant: 'destructive' });
      setPending(false);
    }
  }

  function fillDemoAccount(account: DemoAccount) {
    setUsername(account.username);
    setPassword(account.password);
    setMasterPassword(account.masterPassword ?? '');
  }

  return (
    <div className="grid gap-6">
      <form onSubmit={onSubmit} className="grid gap-4" aria-busy={pending}>
        <div className="grid gap-2">
          <Label htmlFor="login-username">Usuario</Label>
          <Input
            id="login-username"
            name="username"
            placeholder="Usuario"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="login-password">Contraseña</Label>
          <div className="relative">
            <Input
              id="login-password"
              name="password"
              type={showPassword ? 'text' : 'password'}
              placeholder="Contraseña"
              autoComplete="current-password"
              required
              className="pr-12"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <button
              type="button"
              onClick={() => setShowPassword((v) => !v)}
              aria-label={showPassword ? 'Ocultar contraseña' : 'Mostrar contraseña'}
              aria-pressed={showPassword}
              className="absolute inset-y-0 right-0 inline-flex w-11 items-center justify-center rounded-r-md text-muted-foreground hover:text-foreground"
            >
              {showPassword ? <EyeOff className="size-4" aria-hidden="true" /> : <Eye className="size-4" aria-hidden="true" />}
            </button>
          </div>
        </div>
        {showMaster ? (
          <div className="grid gap-2">
            <Label htmlFor="login-master">
              <KeyRound className="size-3.5 text-muted-foreground" aria-hidden="true" />
              Contraseña Maestra
            </Label>
            <Input
              ref={masterRef}
              id="login-master"
              name="masterPassword"
              type="password"
              placeholder="Contraseña Maestra"
              autoComplete="off"
              required
              value={masterPassword}
              onChange={(e) => setMasterPassword(e.target.value)}
            />
            <p className="text-xs text-muted-foreground">Las cuentas de administrador requieren una segunda contraseña.</p>
          </div>
        ) : null}
        {factor !== null ? (
          <SecondFactorField
            ref={codeRef}
            kind={factor}
            value={code}
            error={codeError}
            onChange={(value) => {
              setCode(value);
              setCodeError(null);
            }}
            onSwitch={() => askSecondFactor(factor === 'totp' ? 'recovery' : 'totp')}
          />
        ) : null}
        <Button type="submit" size="lg" className="mt-2 w-full" disabled={pending}>
          {pending ? <Spinner /> : <LogIn aria-hidden="true" />}
          {pending ? 'Verificando...' : 'Acceder al Sistema'}
        </Button>
      </form>
      {showDemoAccounts ? <DemoAccounts onPick={fillDemoAccount} /> : null}
    </div>
  );
}

interface SecondFactorFieldProps {
  ref: Ref<HTMLInputElement>;
  kind: SecondFactor;
  value: string;
  error: string | null;
  onChange: (value: string) => void;
  onSwitch: () => void;
}

/** 'Código de verificación' (six digits of the app) or 'Código de recuperación', with the switch between them. */
function SecondFactorField({ ref, kind, value, error, onChange, onSwitch }: SecondFactorFieldProps) {
  const totp = kind === 'totp';
  const id = totp ? 'login-totp' : 'login-recovery';
  const describedBy = [`${id}-hint`, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>
        <ShieldCheck className="size-3.5 text-muted-foreground" aria-hidden="true" />
        {totp ? 'Código de verificación' : 'Código de recuperación'}
      </Label>
      <Input
        ref={ref}
        id={id}
        name={totp ? 'totpCode' : 'recoveryCode'}
        inputMode={totp ? 'numeric' : 'text'}
        autoComplete={totp ? 'one-time-code' : 'off'}
        autoCapitalize="none"
        spellCheck={false}
        maxLength={totp ? 8 : 64}
        className="font-mono tracking-wider"
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        {totp
          ? 'Escriba el código de 6 dígitos que muestra su aplicación de autenticación.'
          : 'Escriba uno de los códigos de recuperación que guardó al activar la verificación en dos pasos. Cada uno sirve una sola vez.'}
      </p>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-crit-fg">
          {error}
        </p>
      ) : null}
      <Button type="button" variant="link" size="sm" className="h-auto min-h-11 w-fit justify-start px-0 sm:h-auto" onClick={onSwitch}>
        {totp ? 'Usar un código de recuperación' : 'Usar el código de la aplicación'}
      </Button>
    </div>
  );
}
