import type { ReactNode } from 'react';
import type { Device } from '@agua/shared';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { DeviceCard } from './device-card';

/**
 * 1 column on a phone up to 4 on a wide screen, by the width of the content area; `alarmsOf` fills
 * each card's alarm slot. `loaded`: the list came at least once — an empty list that never came is
 * unknown, not 'no devices'.
 */
export function DeviceGrid({
  devices,
  canWrite,
  loading,
  loaded = true,
  alarmsOf,
}: {
  devices: Device[];
  canWrite: boolean;
  loading: boolean;
  loaded?: boolean;
  alarmsOf?: (deviceId: string) => ReactNode;
}) {
  if (loading) {
    return (
      <div className="grid grid-cols-1 gap-4 @xl:grid-cols-2 @4xl:grid-cols-3 @min-[68rem]:grid-cols-4" aria-hidden="true">
        {Array.from({ length: 4 }, (_, i) => (
          <Card key={i} className="h-72 p-4">
            <Skeleton className="h-5 w-2/3" />
            <Skeleton className="mt-2 h-4 w-1/2" />
            <Skeleton className="mt-6 h-10 w-1/3" />
          </Card>
        ))}
      </div>
    );
  }
  if (devices.length === 0 && !loaded) {
    return <p className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">Sin datos de dispositivos: no se pudo cargar la lista.</p>;
  }
  if (devices.length === 0) {
    return <p className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">No hay dispositivos registrados.</p>;
  }
  return (
    <section aria-label="Dispositivos" className="grid grid-cols-1 gap-4 @xl:grid-cols-2 @4xl:grid-cols-3 @min-[68rem]:grid-cols-4">
      {devices.map((device) => (
        <DeviceCard key={device.id} device={device} canWrite={canWrite} alarms={alarmsOf?.(device.id)} />
      ))}
    </section>
  );
}
