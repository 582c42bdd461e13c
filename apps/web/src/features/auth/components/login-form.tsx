import { useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Eye, EyeOff, KeyRound, LogIn } from 'lucide-react';
import { UI_TEXTS } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { isApiError } from '@/lib/api-client';
import { useAuth } from '../hooks/use-auth';
import { DemoAccounts, type DemoAccount } from './demo-accounts';

// The seed shows the master-password field while the username is exactly 'admin'.
const SEED_ADMIN_USERNAME = 'admin';

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

  const showMaster = username === SEED_ADMIN_USERNAME || (masterRequiredFor !== null && masterRequiredFor === username);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    try {
      const me = await login({ username, password, ...(showMaster ? { masterPassword } : {}) });
      toast({ title: UI_TEXTS.loginSuccessTitle, description: UI_TEXTS.loginSuccessDescription, variant: 'success' });
      navigate(me.mustChangePassword ? '/account/password' : '/', { replace: true });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
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
        <Button type="submit" size="lg" className="mt-2 w-full" disabled={pending}>
          {pending ? <Spinner /> : <LogIn aria-hidden="true" />}
          {pending ? 'Verificando...' : 'Acceder al Sistema'}
        </Button>
      </form>
      {showDemoAccounts ? <DemoAccounts onPick={fillDemoAccount} /> : null}
    </div>
  );
}
