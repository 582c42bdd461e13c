import { Navigate } from 'react-router';
import { Waves } from 'lucide-react';
import { PRODUCT_NAME } from '@agua/shared';
import { FullPageSpinner } from '@/components/ui/spinner';
import { useAppConfig } from '@/features/auth/api/get-config';
import { LoginForm } from '@/features/auth/components/login-form';
import { LoginHero } from '@/features/auth/components/login-hero';
import { homeOf, useAuth } from '@/features/auth/hooks/use-auth';
import { ThemeToggle } from '../layout/theme-toggle';

export default function LoginRoute() {
  const { user, status } = useAuth();
  const config = useAppConfig();
  if (status === 'restoring') return <FullPageSpinner />;
  if (user) return <Navigate to={homeOf(user)} replace />;

  return (
    <div className="grid min-h-dvh lg:grid-cols-[minmax(0,1.1fr)_minmax(0,1fr)]">
      <title>{`Iniciar Sesión · ${PRODUCT_NAME}`}</title>
      <LoginHero />
      <div className="relative flex flex-col items-center justify-center px-4 py-10 sm:px-8">
        <header className="absolute top-3 right-3">
          <ThemeToggle />
        </header>
        <main className="w-full max-w-sm">
          <div className="mb-8 flex items-center gap-3 lg:hidden">
            <span className="inline-flex size-10 items-center justify-center rounded-lg bg-primary text-primary-foreground">
              <Waves aria-hidden="true" className="size-6" />
            </span>
            <div>
              <p className="font-semibold">{PRODUCT_NAME}</p>
              <p className="text-xs text-muted-foreground">Monitoreo seguro, en tiempo real y multiusuario</p>
            </div>
          </div>
          <h1 className="text-2xl font-semibold tracking-tight">Iniciar Sesión</h1>
          <p className="mt-1 mb-6 text-sm text-muted-foreground">Acceda con su cuenta para supervisar y controlar los dispositivos.</p>
          <LoginForm showDemoAccounts={config.data?.demo === true} />
          {config.data?.version ? <p className="mt-8 text-center text-xs text-muted-foreground">Versión {config.data.version}</p> : null}
        </main>
      </div>
    </div>
  );
}
