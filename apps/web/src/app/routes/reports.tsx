import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Plus } from 'lucide-react';
import { can, type Report } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormField } from '@/components/ui/form-field';
import { NativeSelect } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { useDevices } from '@/features/devices/hooks/use-devices';
import { useReportRuns } from '@/features/reports/api/report-runs';
import { useDeleteReport, useReports } from '@/features/reports/api/reports';
import { GenerateReportDialog } from '@/features/reports/components/generate-report-dialog';
import { ReportFormDialog } from '@/features/reports/components/report-form-dialog';
import { ReportList } from '@/features/reports/components/report-list';
import { ReportRunList } from '@/features/reports/components/report-run-list';
import { useRunFilter } from '@/features/reports/hooks/use-run-filter';
import { SiteFilter } from '@/features/sites/components/site-filter';
import { usersQueryOptions } from '@/features/users/api/get-users';

/** What is open over the screen: at most one dialog. */
type Open = { kind: 'new' } | { kind: 'edit'; report: Report } | { kind: 'run'; report: Report } | null;

function ListSkeleton({ rows, height }: { rows: number; height: string }) {
  return (
    <div className="grid gap-2" aria-hidden="true">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className={height} />
      ))}
    </div>
  );
}

/** 'Informes' (docs/reports.md): the definitions, 'Generar ahora' with write permission, editing for admins, and the runs with their files. */
export default function ReportsRoute() {
  const { user } = useAuth();
  const { devices } = useDevices();
  const canManage = can(user, 'manage_devices');
  const canRun = can(user, 'write');
  const canListUsers = can(user, 'manage_users');
  const reports = useReports();
  const runFilter = useRunFilter();
  const runs = useReportRuns(runFilter.filters);
  // The recipients' names come from the users feature; GET /users is for admins only.
  const users = useQuery({ ...usersQueryOptions, enabled: canManage && canListUsers });
  const remove = useDeleteReport();
  const [open, setOpen] = useState<Open>(null);
  const [deleting, setDeleting] = useState<Report | null>(null);

  const names = useMemo(() => new Map(devices.map((d) => [d.id, d.name])), [devices]);
  const deviceName = (id: string) => names.get(id) ?? id;
  const definitions = useMemo(() => [...(reports.data ?? [])].sort((a, b) => a.name.localeCompare(b.name, 'es')), [reports.data]);
  // '?siteId=': the definitions that cover one of the site's devices (every device, when none are named).
  const [params] = useSearchParams();
  const siteId = params.get('siteId');
  const shown = useMemo(() => {
    if (!siteId) return definitions;
    const ofSite = new Set(devices.filter((d) => d.siteId === siteId).map((d) => d.id));
    return definitions.filter((r) => r.deviceIds === null || r.deviceIds.some((id) => ofSite.has(id)));
  }, [definitions, devices, siteId]);
  const runItems = runs.data?.pages.flatMap((p) => p.items) ?? [];
  // A report in the URL that is not (or no longer) defined still shows, rather than vanishing.
  const unknownFilter = runFilter.reportId && reports.data && !reports.data.some((r) => r.id === runFilter.reportId);

  const confirmDelete = () => {
    if (!deleting) return;
    const { id, name } = deleting;
    remove.mutate(id, {
      onSuccess: () => {
        toast({ title: 'Informe eliminado', description: name, variant: 'success' });
        if (runFilter.reportId === id) runFilter.setReportId('');
      },
      onError: (error) => toast({ title: 'No se pudo eliminar el informe', description: error.message, variant: 'destructive' }),
    });
  };

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Informes"
        description="Resúmenes diarios, semanales, mensuales y de desbordamientos en Excel y PDF: programados o generados a mano."
        actions={
          canManage ? (
            <Button className="w-full sm:w-auto" onClick={() => setOpen({ kind: 'new' })}>
              <Plus aria-hidden="true" />
              Nuevo informe
            </Button>
          ) : undefined
        }
      />

      <section aria-labelledby="report-definitions-title" className="grid gap-3">
        <h2 id="report-definitions-title" className="text-lg font-semibold">
          Definiciones
        </h2>
        <SiteFilter />
        {/* A failed load is an error, never 'No hay informes definidos.'. */}
        {reports.isError && !reports.data ? (
          <LoadError message={reports.error.message} onRetry={() => void reports.refetch()} />
        ) : reports.isPending ? (
          <ListSkeleton rows={2} height="h-36" />
        ) : (
          <ReportList
            reports={shown}
            emptyText={siteId && definitions.length > 0 ? 'Ningún informe incluye dispositivos de este sitio.' : undefined}
            deviceName={deviceName}
            onRun={canRun ? (report) => setOpen({ kind: 'run', report }) : undefined}
            onEdit={canManage ? (report) => setOpen({ kind: 'edit', report }) : undefined}
            onDelete={canManage ? setDeleting : undefined}
          />
        )}
      </section>

      <section aria-labelledby="report-runs-title" className="grid gap-3">
        <div className="flex flex-col gap-3 @2xl:flex-row @2xl:items-end @2xl:justify-between">
          <div className="grid gap-1">
            <h2 id="report-runs-title" className="text-lg font-semibold">
              Ejecuciones
            </h2>
            <p className="text-sm text-muted-foreground">Más recientes primero; el estado se actualiza en directo.</p>
          </div>
          <FormField id="report-run-filter" label="Informe" className="@2xl:w-72">
            <NativeSelect id="report-run-filter" value={runFilter.reportId} onChange={(e) => runFilter.setReportId(e.target.value)}>
              <option value="">Todos los informes</option>
              {unknownFilter ? <option value={runFilter.reportId}>{runFilter.reportId}</option> : null}
              {definitions.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                </option>
              ))}
            </NativeSelect>
          </FormField>
        </div>
        {runs.isError && !runs.data ? (
          <LoadError message={runs.error.message} onRetry={() => void runs.refetch()} />
        ) : runs.isPending ? (
          <ListSkeleton rows={3} height="h-14" />
        ) : (
          <div className={runs.isPlaceholderData ? 'grid gap-4 opacity-60 transition-opacity' : 'grid gap-4'} aria-busy={runs.isFetching}>
            <ReportRunList runs={runItems} filtered={runFilter.reportId !== ''} />
            {runs.isFetchNextPageError ? <LoadError message={runs.error?.message ?? ''} onRetry={() => void runs.fetchNextPage()} /> : null}
            {runs.hasNextPage ? (
              <Button variant="outline" className="justify-self-center" onClick={() => void runs.fetchNextPage()} disabled={runs.isFetchingNextPage}>
                {runs.isFetchingNextPage ? <Spinner /> : null}
                Cargar más
              </Button>
            ) : null}
          </div>
        )}
      </section>

      {open?.kind === 'new' && canManage ? (
        <ReportFormDialog devices={devices} users={canListUsers ? { data: users.data, error: users.error, retry: () => void users.refetch() } : null} onClose={() => setOpen(null)} />
      ) : null}
      {open?.kind === 'edit' && canManage ? (
        <ReportFormDialog
          key={open.report.id}
          report={open.report}
          devices={devices}
          users={canListUsers ? { data: users.data, error: users.error, retry: () => void users.refetch() } : null}
          onClose={() => setOpen(null)}
        />
      ) : null}
      {open?.kind === 'run' && canRun ? <GenerateReportDialog key={open.report.id} report={open.report} onClose={() => setOpen(null)} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => {
          if (!o) setDeleting(null);
        }}
        title="¿Eliminar informe?"
        description={deleting ? `«${deleting.name}» dejará de generarse y de enviarse; sus ejecuciones y archivos se conservan. Esta acción no se puede deshacer.` : undefined}
        confirmLabel="Eliminar"
        destructive
        onConfirm={confirmDelete}
      />
    </div>
  );
}
