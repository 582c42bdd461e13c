import { PageHeader } from '@/components/page-header';
import { FullPageSpinner } from '@/components/ui/spinner';
import { useMyNotifications } from '@/features/notifications/api/my-notifications';
import { MyNotificationsForm } from '@/features/notifications/components/my-notifications-form';
import { LoadError } from '@/components/load-error';

export default function MyNotificationsRoute() {
  const { data, error, refetch } = useMyNotifications();
  return (
    <div className="mx-auto grid max-w-2xl gap-6">
      <PageHeader title="Mis notificaciones" description="Qué alarmas le avisan por correo y push, según su prioridad." />
      {error ? <LoadError message={error instanceof Error ? error.message : String(error)} onRetry={() => void refetch()} /> : data ? <MyNotificationsForm mine={data} /> : <FullPageSpinner />}
    </div>
  );
}
