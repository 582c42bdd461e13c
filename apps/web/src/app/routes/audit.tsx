import { useMemo, useState } from 'react';
import { FileDown } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { PageHeader } from '@/components/page-header';
import { downloadAudit, useAuditEvents } from '@/features/audit/api/get-audit-events';
import { toast } from '@/components/ui/use-toast';
import { useAuditFilterOptions } from '@/features/audit/api/get-audit-filter-options';
import { AuditFilters } from '@/features/audit/components/audit-filters';
import { AuditList } from '@/features/audit/components/audit-list';
import { toAuditQuery, useAuditFilters } from '@/features/audit/hooks/use-audit-filters';
import { isApiError } from '@/lib/api-client';
import { LoadError } from '@/components/load-error';

export default function AuditRoute() {
  const filters = useAuditFilters();
  const parsed = toAuditQuery(filters.values);
  const query = 'query' in parsed ? parsed.query : {};
  const audit = useAuditEvents(query, 'query' in parsed);
  const options = useAuditFilterOptions();
  const names = useMemo(
    () => ({ users: new Map(options.users.map((u) => [u.id, u.name])), devices: new Map(options.devices.map((d) => [d.id, d.name])) }),
    [options.users, options.devices],
  );
  const events = audit.data?.pages.flatMap((p) => p.items ?? []) ?? [];
  const [exporting, setExporting] = useState(false);
  async function exportCsv() {
    setExporting(true);
    try {
      await downloadAudit(query);
    } catch (err) {
      const empty = isApiError(err) && err.code === 'NO_DATA';
      toast({ title: empty ? 'Sin datos' : 'No se pudo exportar', description: empty ? 'No hay eventos de auditoría con esos filtros.' : err instanceof Error ? err.message : String(err), variant: empty ? 'default' : 'destructive' });
    } finally {
      setExporting(false);
    }
  }
  const unavailable = audit.isError && isApiError(audit.error) && audit.error.status === 404;

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Auditoría"
        description="Quién hizo qué y cuándo: accesos, comandos y cambios."
        actions={
          <Button variant="outline" disabled={!('query' in parsed) || exporting} onClick={() => void exportCsv()}>
            {exporting ? <Spinner /> : <FileDown aria-hidden="true" />}
            Exportar CSV
          </Button>
        }
      />
      <AuditFilters
        values={filters.values}
        onChange={filters.setValue}
        onDays={filters.setDays}
        onClear={filters.clear}
        active={filters.active}
        users={options.users}
        devices={options.devices}
        error={'error' in parsed ? parsed.error : null}
      />
      {unavailable ? (
        <p className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">El registro de auditoría aún no está disponible.</p>
      ) : audit.isError && !audit.data ? (
        <LoadError message={audit.error.message} onRetry={() => void audit.refetch()} />
      ) : audit.isPending ? (
        <div className="grid gap-2" aria-hidden="true">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} className="h-12" />
          ))}
        </div>
      ) : (
        <div className={audit.isPlaceholderData ? 'grid gap-4 opacity-60 transition-opacity' : 'grid gap-4'} aria-busy={audit.isFetching}>
          <AuditList events={events} names={names} />
          {audit.hasNextPage ? (
            <Button variant="outline" className="justify-self-center" onClick={() => void audit.fetchNextPage()} disabled={audit.isFetchingNextPage}>
              {audit.isFetchingNextPage ? <Spinner /> : null}
              Cargar más
            </Button>
          ) : null}
        </div>
      )}
    </div>
  );
}
