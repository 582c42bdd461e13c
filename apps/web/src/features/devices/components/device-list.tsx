import { Link } from 'react-router';
import { DoorOpen, Droplets } from 'lucide-react';
import type { Device } from '@agua/shared';
import { Skeleton } from '@/components/ui/skeleton';
import { ConnectionBadge } from '@/components/device/connection-badge';
import { cn } from '@/lib/utils';
import { DeviceReading } from './device-reading';
import { DeviceToggleButton } from './device-toggle-button';

interface DeviceListProps {
  devices: Device[];
  selectedId: string | null;
  canManageDevices: boolean;
  loading: boolean;
}

/** The devices with their state; a row selects its device (kept in the URL as ?id=). */
export function DeviceList({ devices, selectedId, canManageDevices, loading }: DeviceListProps) {
  if (loading) {
    return (
      <div className="grid gap-3" aria-hidden="true">
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} className="h-24 rounded-lg" />
        ))}
      </div>
    );
  }
  if (devices.length === 0) {
    return <p className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">No hay dispositivos registrados.</p>;
  }
  return (
    <ul className="@container grid gap-3" aria-label="Lista de dispositivos">
      {devices.map((device) => {
        const selected = device.id === selectedId;
        const Icon = device.type === 'level_sensor' ? Droplets : DoorOpen;
        return (
          <li
            key={device.id}
            data-testid={`device-row-${device.id}`}
            className={cn(
              'relative flex flex-col gap-3 rounded-lg border bg-card p-4 shadow-xs transition-colors hover:border-primary/40 @2xl:flex-row @2xl:items-center',
              selected && 'border-primary ring-1 ring-primary',
            )}
          >
            <span aria-hidden="true" className="hidden size-10 shrink-0 items-center justify-center rounded-md bg-muted @2xl:inline-flex">
              <Icon className="size-5 text-muted-foreground" />
            </span>
            <div className="min-w-0 flex-1">
              {/* The link covers the whole row (after:inset-0) so a tap anywhere selects it. */}
              <Link
                to={{ search: `?id=${encodeURIComponent(device.id)}` }}
                aria-current={selected ? 'true' : undefined}
                className="font-semibold after:absolute after:inset-0 after:rounded-lg focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-ring"
              >
                {device.name}
              </Link>
              <p className="text-sm break-words text-muted-foreground">{device.location}</p>
              <p className="font-mono text-xs text-muted-foreground">ID: {device.id}</p>
            </div>
            <div className="flex flex-wrap items-center gap-3 @2xl:justify-end">
              {/* A fixed-width slot, so live values never push the badges around. */}
              <span className="inline-flex @2xl:min-w-[10.5rem] @2xl:justify-end">
                <DeviceReading device={device} testId={`reading-${device.id}`} />
              </span>
              <ConnectionBadge device={device} />
              {canManageDevices ? <DeviceToggleButton device={device} className="relative z-10" /> : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
