import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ArrowLeft, DraftingCompass, MapPinOff } from 'lucide-react';
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
import { useSites, useSynoptic } from '@/features/sites/api/sites-api';
import { DeviceDialog } from '@/features/sites/components/device-dialog';
import { SiteAlarmBadge } from '@/features/sites/components/site-alarm-badge';
import { SiteFormButton } from '@/features/sites/components/site-form-dialog';
import { SynopticView } from '@/features/sites/components/synoptic-view';
import { useSiteStatuses } from '@/features/sites/hooks/use-site-statuses';
import { NO_ALARMS } from '@/features/sites/utils/site-status';

export default function SiteRoute() {
  const { id = '' } = useParams();
  const { user } = useAuth();
  const sites = useSites();
  const synoptic = useSynoptic(id);
  const { devices, fetchedAt } = useDevices();
  const { data: alarms } = useOpenAlarms();
  const statuses = useSiteStatuses();
  const [openId, setOpenId] = useState<string | null>(null);
  const site = sites.data?.find((s) => s.id === id) ?? null;
  const manage = can(user, 'manage_devices');
  const open = openId ? (devices.find((d) => d.id === openId) ?? null) : null;
  const siteDevices = devices.filter((d) => d.siteId === id);

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

  const data = synoptic.data;
  return (
    <div className="grid gap-6">
      <PageHeader
        title={site?.name ?? 'Sitio'}
        description={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <SiteAlarmBadge status={statuses.get(id) ?? NO_ALARMS} />
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
      {synoptic.error && !data ? <LoadError message={synoptic.error.message} onRetry={() => void synoptic.refetch()} /> : null}
      {synoptic.isPending ? <Skeleton className="aspect-[3/2] w-full rounded-xl" /> : null}
      {data && data.items.length === 0 ? (
        <Card className="flex flex-col items-center gap-3 p-10 text-center">
          <DraftingCompass aria-hidden="true" className="size-8 text-muted-foreground" />
          <p className="text-sm font-medium">Este sitio aún no tiene sinóptico.</p>
          <p className="text-sm text-muted-foreground">{manage ? 'Dibújelo con «Editar sinóptico».' : 'Un administrador puede dibujarlo.'}</p>
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
              Versión {data.version} · guardada por {data.createdBy?.name ?? 'Sistema'}, <RelativeTime value={data.createdAt} />
            </p>
          ) : null}
        </section>
      ) : null}
      <DeviceDialog device={open} canWrite={can(user, 'write')} hasAlarms={(alarms ?? []).some((a) => a.deviceId === openId)} onClose={() => setOpenId(null)} />
    </div>
  );
}
