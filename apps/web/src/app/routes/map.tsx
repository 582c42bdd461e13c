import { useNavigate } from 'react-router';
import { WifiOff } from 'lucide-react';
import { can } from '@agua/shared';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { useAppConfig } from '@/features/auth/api/get-config';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { useDevices } from '@/features/devices/hooks/use-devices';
import { DataAgeNotice } from '@/features/live/components/data-age-notice';
import { useSites } from '@/features/sites/api/sites-api';
import { SiteFormButton } from '@/features/sites/components/site-form-dialog';
import { SiteList } from '@/features/sites/components/site-list';
import { SiteMap, type PlacedSite } from '@/features/sites/components/site-map';
import { useSiteStatuses } from '@/features/sites/hooks/use-site-statuses';

export default function MapRoute() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const sites = useSites();
  const { devices, fetchedAt } = useDevices();
  const config = useAppConfig();
  const statusOf = useSiteStatuses();
  const tileUrl = config.data?.map?.tileUrl ?? null;
  const placed = (sites.data ?? []).filter((s): s is PlacedSite => s.lat !== null && s.lon !== null);

  return (
    <div className="grid gap-6">
      <PageHeader title="Mapa" description="Los sitios y sus alarmas sin reconocer." actions={can(user, 'manage_devices') ? <SiteFormButton /> : undefined} />
      <DataAgeNotice fetchedAt={fetchedAt} />
      {sites.error && !sites.data ? <LoadError message={sites.error.message} onRetry={() => void sites.refetch()} /> : null}
      {/* Wide: the map, the list beside it. A phone: the list first, the map under it. */}
      <div className="grid items-start gap-6 @5xl:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="order-1 min-w-0 @5xl:order-2">
          <SiteList sites={sites.data ?? []} devices={devices} statusOf={statusOf} loading={sites.isPending} />
        </div>
        <section aria-label="Mapa de sitios" className="order-2 grid min-w-0 gap-2 @5xl:order-1">
          {config.isPending ? null : (
            <SiteMap
              sites={placed}
              statusOf={statusOf}
              tileUrl={tileUrl}
              attribution={config.data?.map?.attribution ?? null}
              onOpen={(id) => navigate(`/sites/${encodeURIComponent(id)}`)}
              className="h-[22rem] @5xl:h-[calc(100dvh-14rem)] @5xl:min-h-[28rem]"
            />
          )}
          {tileUrl ? null : (
            <p data-testid="map-no-tiles" className="flex items-center gap-1.5 text-xs text-muted-foreground">
              <WifiOff aria-hidden="true" className="size-3.5" />
              Sin mapa base (modo sin conexión): los sitios se muestran sobre un fondo neutro, con la escala.
            </p>
          )}
        </section>
      </div>
    </div>
  );
}
