import { useSearchParams } from 'react-router';
import { MousePointerClick } from 'lucide-react';
import { can } from '@agua/shared';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/page-header';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { useOpenAlarms } from '@/features/alarms/api/alarms-api';
import { AlarmRulesButton } from '@/features/alarms/components/alarm-rules-dialog';
import { DeviceAlarms } from '@/features/alarms/components/device-alarms';
import { DeviceControlPanel } from '@/features/devices/components/device-control-panel';
import { DeviceAdminActions } from '@/features/device-admin/components/device-admin-actions';
import { GeometryButton } from '@/features/water/components/geometry-dialog';
import { NewDeviceDialog } from '@/features/device-admin/components/new-device-dialog';
import { DeviceList } from '@/features/devices/components/device-list';
import { useDevices } from '@/features/devices/hooks/use-devices';
import { TrendChart } from '@/features/history/components/trend-chart';
import { DataAgeNotice } from '@/features/live/components/data-age-notice';
import { LoadError } from '@/components/load-error';

export default function DevicesRoute() {
  const { user } = useAuth();
  const { devices, isLoading, error, fetchedAt, refetch } = useDevices();
  const openAlarms = useOpenAlarms();
  const [params] = useSearchParams();
  const selectedId = params.get('id');
  const selected = selectedId ? (devices.find((d) => d.id === selectedId) ?? null) : null;

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Control de Dispositivos de Agua"
        description="Estado, conexión y comandos de cada dispositivo."
        actions={can(user, 'manage_devices') ? <NewDeviceDialog /> : undefined}
      />
      <DataAgeNotice fetchedAt={fetchedAt} />
      {error && devices.length === 0 ? <LoadError message={error.message} onRetry={refetch} /> : null}
      {/*
        Wide: the selected device's trend spans the content width above the list and its panel.
        Narrow (one column): list, trend, then the panel, which scrolls itself into view.
      */}
      <div className="grid items-start gap-6 @5xl:grid-cols-[minmax(0,1fr)_minmax(0,28rem)]">
        {selected ? (
          <Card className="order-2 min-w-0 overflow-hidden @5xl:order-first @5xl:col-span-2">
            <TrendChart device={selected} />
          </Card>
        ) : null}
        <div className="order-1 min-w-0">
          <DeviceList devices={devices} selectedId={selectedId} canManageDevices={can(user, 'manage_devices')} loading={isLoading} />
        </div>
        <div className="order-3 min-w-0 @5xl:sticky @5xl:top-24">
          {selected ? (
            <DeviceControlPanel
              device={selected}
              canWrite={can(user, 'write')}
              admin={
                can(user, 'manage_devices') ? (
                  <div className="grid gap-3">
                    <DeviceAdminActions device={selected} />
                    <AlarmRulesButton device={selected} />
                    {selected.type === 'level_sensor' ? <GeometryButton device={selected} /> : null}
                  </div>
                ) : undefined
              }
              alarms={openAlarms.data?.some((a) => a.deviceId === selected.id) ? <DeviceAlarms deviceId={selected.id} variant="list" /> : undefined}
            />
          ) : (
            <Card className="flex flex-col items-center gap-3 p-10 text-center">
              <MousePointerClick aria-hidden="true" className="size-8 text-muted-foreground" />
              {selectedId && !isLoading ? <p className="text-sm font-medium">Dispositivo no encontrado: {selectedId}</p> : null}
              <p className="text-sm text-muted-foreground">Selecciona un dispositivo para controlarlo</p>
            </Card>
          )}
        </div>
      </div>
    </div>
  );
}
