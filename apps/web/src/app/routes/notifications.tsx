import { PageHeader } from '@/components/page-header';
import { DeliveryLog } from '@/features/notifications/components/delivery-log';
import { EscalationCard } from '@/features/notifications/components/escalation-card';
import { WebhooksCard } from '@/features/notifications/components/webhooks-card';
import { useUsers } from '@/features/users/api/get-users';

/** 'Notificaciones' (admin): webhooks, the escalation policy and the delivery log. */
export default function NotificationsRoute() {
  // The escalation names users; the list belongs to the users feature, so it is composed here.
  const users = useUsers();
  return (
    <div className="grid gap-6">
      <PageHeader title="Notificaciones" description="Webhooks, escalada y registro de envíos de las alarmas." />
      <WebhooksCard />
      <EscalationCard users={{ data: users.data, error: users.error, retry: () => void users.refetch() }} />
      <DeliveryLog />
    </div>
  );
}
