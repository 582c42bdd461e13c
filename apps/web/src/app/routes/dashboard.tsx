import { can, PRODUCT_NAME } from '@agua/shared';
import { PageHeader } from '@/components/page-header';
import { DeviceAlarms } from '@/features/alarms/components/device-alarms';
import { DeviceGrid } from '@/features/dashboard/components/device-grid';
import { ExportDialog } from '@/features/dashboard/components/export-dialog';
import { LevelOverlay } from '@/features/dashboard/components/level-overlay';
import { SummaryTiles } from '@/features/dashboard/components/summary-tiles';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { useDevices } from '@/features/devices/hooks/use-devices';
import { DataAgeNotice } from '@/features/live/components/data-age-notice';
import { LoadError } from '@/components/load-error';

export default function DashboardRoute() {
  const { user } = useAuth();
  const { devices, isLoading, error, fetchedAt, refetch } = useDevices();
  return (
    <div className="grid gap-6">
      <PageHeader title={PRODUCT_NAME} description="Monitoreo en tiempo real de niveles y compuertas." actions={<ExportDialog devices={devices} />} />
      <DataAgeNotice fetchedAt={fetchedAt} />
      {error && devices.length === 0 ? <LoadError message={error.message} onRetry={refetch} /> : null}
      <SummaryTiles devices={devices} loading={isLoading} />
      <DeviceGrid devices={devices} canWrite={can(user, 'write')} loading={isLoading} alarmsOf={(id) => <DeviceAlarms deviceId={id} />} />
      {isLoading ? null : <LevelOverlay devices={devices} />}
    </div>
  );
}
