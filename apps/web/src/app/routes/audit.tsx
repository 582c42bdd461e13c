import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { PageHeader } from '@/components/page-header';
import { useAuditEvents } from '@/features/audit/api/get-audit-events';
import { AuditList } from '@/features/audit/components/audit-list';
import { isApiError } from '@/lib/api-client';
import { LoadError } from './load-error';

export default function AuditRoute() {
  const audit = useAuditEvents();
  const events = audit.data?.pages.flatMap((p) => p.items ?? []) ?? [];
  const unavailable = audit.isError && isApiError(audit.error) && audit.error.status === 404;
  return (
    <div className="grid gap-6">
      <PageHeader title="Auditoría" description="Quién hizo qué y cuándo: accesos, comandos y cambios." />
      {unavailable ? (
        <p className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">El registro de auditoría aún no está disponible.</p>
      ) : audit.isError ? (
        <LoadError message={audit.error.message} onRetry={() => void audit.refetch()} />
      ) : audit.isPending ? (
        <div className="grid gap-2" aria-hidden="true">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} className="h-12" />
          ))}
        </div>
      ) : (
        <>
          <AuditList events={events} />
          {audit.hasNextPage ? (
            <Button variant="outline" className="justify-self-center" onClick={() => void audit.fetchNextPage()} disabled={audit.isFetchingNextPage}>
              {audit.isFetchingNextPage ? <Spinner /> : null}
              Cargar más
            </Button>
          ) : null}
        </>
      )}
    </div>
  );
}
