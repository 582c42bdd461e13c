import { useNavigate } from 'react-router';
import { ERROR_MESSAGES } from '@agua/shared';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/page-header';
import { ChangePasswordForm } from '@/features/auth/components/change-password-form';
import { useAuth } from '@/features/auth/hooks/use-auth';

export default function ChangePasswordRoute() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const forced = user?.mustChangePassword === true;
  return (
    <div className="mx-auto grid max-w-lg gap-6">
      <PageHeader title="Cambiar Contraseña" description={forced ? ERROR_MESSAGES.PASSWORD_CHANGE_REQUIRED : 'Actualice la contraseña de su cuenta.'} />
      <Card className="p-5 sm:p-6">
        <ChangePasswordForm onDone={() => navigate('/', { replace: true })} />
      </Card>
    </div>
  );
}
