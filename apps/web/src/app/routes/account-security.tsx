import { ShieldAlert } from 'lucide-react';
import { ERROR_MESSAGES } from '@agua/shared';
import { PageHeader } from '@/components/page-header';
import { SessionsSection } from '@/features/account-security/components/sessions-section';
import { TwoFactorSection } from '@/features/account-security/components/two-factor-section';
import { useAuth } from '@/features/auth/hooks/use-auth';

/**
 * 'Seguridad de la cuenta' (every signed-in user): two-factor sign-in and the open sessions. While
 * the role requires two-factor sign-in and it is off, this is the only screen (guards.tsx) and
 * 'Sesiones' waits: the server answers nothing else to such a session.
 */
export default function AccountSecurityRoute() {
  const { user } = useAuth();
  const forced = user?.mustEnrolTotp === true;
  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <PageHeader title="Seguridad de la cuenta" description="Verificación en dos pasos y sesiones abiertas de su cuenta." />
      {forced ? (
        <p role="alert" data-testid="totp-enrolment-required" className="flex gap-2 rounded-md border border-warn/40 bg-warn/12 p-3 text-sm font-medium">
          <ShieldAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-warn-fg" />
          {ERROR_MESSAGES.TOTP_ENROLMENT_REQUIRED}
        </p>
      ) : null}
      <TwoFactorSection />
      {forced ? null : <SessionsSection />}
    </div>
  );
}
