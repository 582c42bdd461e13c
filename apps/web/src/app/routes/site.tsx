import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { ArrowLeft, DraftingCompass, History, MapPinOff } from 'lucide-react';
import { can } from '@agua/shared';
import { RelativeTime } from '@/components/device/relative-time';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useOpenAlarms } from '@/features/alarms/api/alarms-api';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { useDevices } from '@/features/devices/hooks/use-devices';
import { DataAgeNotice } from '@/features/live/components/data-age-notice';
import { useSites, useSynoptic, useSynopticVersion } from '@/features/sites/api/sites-api';
import { DeviceDialog } from '@/features/sites/components/device-dialog';
import { SiteAlarmBadge } from '@/features/sites/components/site-alarm-badge';
import { SiteFormButton } from '@/features/sites/components/site-form-dialog';
import { RestoreVersionButton, savedBy, SynopticVersionsCard, versionHref } from '@/features/sites/components/synoptic-versions';
import { SynopticView } from '@/features/sites/components/synoptic-view';
import { useSiteStatuses } from '@/features/sites/hooks/use-site-statuses';
import { childSites } from '@/features/sites/utils/site-tree';
import { formatDateTime } from '@/lib/format';

const inlineLink = 'font-medium text-foreground underline underline-offset-2 hover:text-primary';

/** `?version=n`: an older version shown read-only; null for the newest (or anything else). */
function versionParam(text: string | null): number | null {
  const n = Number(text);
  return text && Number.isInteger(n) && n > 0 ? n : null;
}

export default function SiteRoute() {
  const { id = '' } = useParams();
  const { user } = useAuth();
  const sites = useSites();
  const synoptic = useSynoptic(id);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const asked = versionParam(params.get('version'));
  // The newest version asked by number is simply the newest.
  const viewing = asked !== null && synoptic.data && asked !== synoptic.data.version ? asked : null;
  const old = useSynopticVersion(id, viewing);
  const { devices, fetchedAt } = useDevices();
  const { data: alarms } = useOpenAlarms();
  const statusOf = useSiteStatuses();
  const [openId, setOpenId] = useState<string | null>(null);
  const site = sites.data?.find((s) => s.id === id) ?? null;
  const manage = can(user, 'manage_devices');
  const open = openId ? (devices.find((d) => d.id === openId) ?? null) : null;
  const siteDevices = devices.filter((d) => d.siteId === id);
  const parent = site?.parentId ? (sites.data?.find((s) => s.id === site.parentId) ?? null) : null;
  const children = childSites(sites.data ?? [], id);

  if (sites.data && !site) {
    return (
      <div className="grid gap-6">
        <PageHeader title="Sitio no encontrado" description={`No existe el sitio «${id}», o se eliminó.`} />
        <Link to="/map" className={buttonVariants({ variant: 'outline', className: 'w-fit' })}>
          <ArrowLeft aria-hidden="true" />
          Volver al mapa
        </Link>
      </div>
    );
  }

  const data = viewing === null ? synoptic.data : old.data;
  const error = viewing === null ? synoptic.error : old.error;
  const pending = viewing === null ? synoptic.isPending : synoptic.isPending || old.isPending;
  return (
    <div className="grid gap-6">
      <PageHeader
        title={site?.name ?? 'Sitio'}
        description={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <SiteAlarmBadge status={statusOf(id)} />
            {parent ? (
              <span>
                Dentro de{' '}
                <Link to={`/sites/${encodeURIComponent(parent.id)}`} className={inlineLink} data-testid="site-parent">
                  {parent.name}
                </Link>
              </span>
            ) : null}
            {site?.address ? <span>{site.address}</span> : null}
            {site && site.lat === null ? (
              <span className="inline-flex items-center gap-1">
                <MapPinOff aria-hidden="true" className="size-3.5" />
                Sin coordenadas
              </span>
            ) : null}
            <span>
              {siteDevices.length} {siteDevices.length === 1 ? 'dispositivo' : 'dispositivos'}
            </span>
            {children.length > 0 ? (
              <span data-testid="site-children">
                {children.length === 1 ? 'Sitio dentro: ' : 'Sitios dentro: '}
                {children.map((c, i) => (
                  <span key={c.id}>
                    {i > 0 ? ', ' : null}
                    <Link to={`/sites/${encodeURIComponent(c.id)}`} className={inlineLink}>
                      {c.name}
                    </Link>
                  </span>
                ))}
              </span>
            ) : null}
          </span>
        }
        actions={
          <>
            <Link to="/map" className={buttonVariants({ variant: 'ghost' })}>
              <ArrowLeft aria-hidden="true" />
              Mapa
            </Link>
            {manage && site ? <SiteFormButton site={site} /> : null}
            {manage ? (
              <Link to={`/sites/${encodeURIComponent(id)}/edit`} className={buttonVariants({ variant: 'outline' })}>
                <DraftingCompass aria-hidden="true" />
                Editar sinóptico
              </Link>
            ) : null}
          </>
        }
      />
      <DataAgeNotice fetchedAt={fetchedAt} />
      {viewing !== null ? (
        <div role="status" data-testid="synoptic-old-version" className="flex flex-col gap-3 rounded-lg border border-warn/50 bg-warn/10 px-4 py-3 text-sm sm:flex-row sm:flex-wrap sm:items-center sm:justify-between">
          <p className="flex items-start gap-2">
            <History aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-warn-fg" />
            <span>
              <span className="font-semibold">Está viendo la versión {viewing}</span>
              {old.data?.createdAt ? `, guardada por ${savedBy(old.data)} el ${formatDateTime(old.data.createdAt)}` : ''}. Solo lectura: la actual es la versión{' '}
              {synoptic.data?.version}.
            </span>
          </p>
          <div className="flex flex-wrap gap-2">
            <Link to={versionHref(id, null)} className={buttonVariants({ variant: 'outline', size: 'sm' })}>
              Volver a la versión actual
            </Link>
            {manage ? <RestoreVersionButton siteId={id} version={viewing} onRestored={() => navigate(versionHref(id, null), { replace: true })} /> : null}
          </div>
        </div>
      ) : null}
      {error && !data ? <LoadError message={error.message} onRetry={() => void (viewing === null ? synoptic.refetch() : old.refetch())} /> : null}
      {pending ? <Skeleton className="aspect-[3/2] w-full rounded-xl" /> : null}
      {data && data.items.length === 0 ? (
        <Card className="flex flex-col items-center gap-3 p-10 text-center">
          <DraftingCompass aria-hidden="true" className="size-8 text-muted-foreground" />
          <p className="text-sm font-medium">{viewing === null ? 'Este sitio aún no tiene sinóptico.' : `La versión ${viewing} no tiene elementos.`}</p>
          {viewing === null ? <p className="text-sm text-muted-foreground">{manage ? 'Dibújelo con «Editar sinóptico».' : 'Un administrador puede dibujarlo.'}</p> : null}
        </Card>
      ) : null}
      {data && data.items.length > 0 ? (
        <section aria-labelledby="synoptic-title" className="grid gap-2">
          <h2 id="synoptic-title" className="sr-only">
            Sinóptico
          </h2>
          <SynopticView synoptic={data} devices={devices} alarms={alarms ?? []} onOpenDevice={(d) => setOpenId(d.id)} />
          {data.createdAt ? (
            <p className="text-xs text-muted-foreground">
              Versión {data.version} · guardada por {savedBy(data)}, <RelativeTime value={data.createdAt} />
            </p>
          ) : null}
        </section>
      ) : null}
      {synoptic.data && synoptic.data.version > 0 ? (
        <div className="max-w-2xl">
          <SynopticVersionsCard siteId={id} manage={manage} viewing={viewing} />
        </div>
      ) : null}
      <DeviceDialog device={open} canWrite={can(user, 'write')} hasAlarms={(alarms ?? []).some((a) => a.deviceId === openId)} onClose={() => setOpenId(null)} />
    </div>
  );
}
