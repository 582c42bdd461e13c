import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { MonitorPlay } from 'lucide-react';
import { can, PRODUCT_NAME } from '@agua/shared';
import { PageHeader } from '@/components/page-header';
import { buttonVariants } from '@/components/ui/button';
import { useOpenAlarms } from '@/features/alarms/api/alarms-api';
import { DeviceAlarms } from '@/features/alarms/components/device-alarms';
import { DeviceGrid } from '@/features/dashboard/components/device-grid';
import { ExportDialog } from '@/features/dashboard/components/export-dialog';
import { LevelOverlay } from '@/features/dashboard/components/level-overlay';
import { SummaryTiles } from '@/features/dashboard/components/summary-tiles';
import { abnormalFirst } from '@/features/dashboard/utils/device-order';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { useDevices } from '@/features/devices/hooks/use-devices';
import { SiteFilter } from '@/features/sites/components/site-filter';
import { DataAgeNotice } from '@/features/live/components/data-age-notice';
import { LoadError } from '@/components/load-error';
import { useNow } from '@/hooks/use-now';
import { useLiveStatus } from '@/lib/live-socket';

/** Without live frames, a list polled this recently is still current (polling runs every 10 s then). */
const POLLED_FRESH_MS = 15_000;

export default function DashboardRoute() {
  const { user } = useAuth();
  const { devices: allDevices, isLoading, error, fetchedAt, refetch } = useDevices();
  // '?siteId=' narrows the screen to one site's devices (the live list, filtered here).
  const [params] = useSearchParams();
  const siteId = params.get('siteId');
  const devices = useMemo(() => (siteId ? allDevices.filter((d) => d.siteId === siteId) : allDevices), [allDevices, siteId]);
  const { data: openAlarms } = useOpenAlarms();
  const { state } = useLiveStatus();
  const now = useNow();
  const live = state === 'open';
  // The figures can be vouched for: the list came, and live frames or a recent poll keep it current.
  const known = fetchedAt > 0 && (live || now - fetchedAt < POLLED_FRESH_MS);
  const ordered = useMemo(() => abnormalFirst(devices, openAlarms ?? []), [devices, openAlarms]);
  return (
    <div className="grid gap-6">
      <PageHeader
        title={PRODUCT_NAME}
        description="Monitoreo en tiempo real de niveles y compuertas."
        actions={
          <>
            <Link to="/wall" className={buttonVariants({ variant: 'outline' })}>
              <MonitorPlay aria-hidden="true" />
              Sala de control
            </Link>
            <ExportDialog devices={devices} siteId={siteId} />
          </>
        }
      />
      <SiteFilter />
      <DataAgeNotice fetchedAt={fetchedAt} />
      {error && allDevices.length === 0 ? <LoadError message={error.message} onRetry={refetch} /> : null}
      <SummaryTiles devices={devices} loading={isLoading} known={known} live={live} />
      <DeviceGrid devices={ordered} canWrite={can(user, 'write')} loading={isLoading} loaded={fetchedAt > 0} alarmsOf={(id) => <DeviceAlarms deviceId={id} />} />
      {isLoading ? null : <LevelOverlay devices={devices} />}
    </div>
  );
}
