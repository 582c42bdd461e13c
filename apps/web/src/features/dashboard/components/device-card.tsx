import type { ReactNode } from 'react';
import { DoorOpen, Droplets, MapPin } from 'lucide-react';
import { DEVICE_TYPE_LABELS, type Device } from '@agua/shared';

import { Card } from '@/components/ui/card';
import { Tooltip } from '@/components/ui/tooltip';
import { ConnectionBadge } from '@/components/device/connection-badge';
import { RelativeTime } from '@/components/device/relative-time';
import { GateBody } from './gate-body';
import { LevelSensorBody } from './level-sensor-body';

/** One device on the dashboard: identity, its open alarms (a slot the route fills), live value, and (gates) its controls. */
export function DeviceCard({ device, canWrite, alarms }: { device: Device; canWrite: boolean; alarms?: ReactNode }) {
  const TypeIcon = device.type === 'level_sensor' ? Droplets : DoorOpen;
  const typeLabel = DEVICE_TYPE_LABELS[device.type] ?? device.type;
  return (
    <Card data-testid={`device-card-${device.id}`} data-status={device.status} className="flex min-w-0 flex-col">
      <div className="p-4 pb-3">
        <div className="flex items-center justify-between gap-2">
          <ConnectionBadge device={device} />
          <Tooltip content={typeLabel}>
            <span className="inline-flex size-7 items-center justify-center rounded-md bg-muted text-muted-foreground">
              <TypeIcon aria-hidden="true" className="size-4" />
              <span className="sr-only">{typeLabel}</span>
            </span>
          </Tooltip>
        </div>
        <h2 className="mt-3 leading-snug font-semibold break-words">{device.name}</h2>
        <p className="mt-0.5 flex items-start gap-1 text-sm text-muted-foreground">
          <MapPin aria-hidden="true" className="mt-0.5 size-3.5 shrink-0" />
          <span className="min-w-0 break-words">{device.location}</span>
        </p>
      </div>
      {/* A column that takes the card's spare height: the gate's controls sit at its foot, never under the footer. */}
      <div className="flex flex-1 flex-col px-4 pb-4">
        {alarms ? <div className="mb-2 empty:hidden">{alarms}</div> : null}
        {device.type === 'level_sensor' ? <LevelSensorBody device={device} /> : <GateBody device={device} canWrite={canWrite} />}
      </div>
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 border-t px-4 py-2.5 text-xs text-muted-foreground">
        <span className="font-mono">{device.id}</span>
        <span>
          Última conexión: <RelativeTime value={device.lastSeen} />
        </span>
      </div>
    </Card>
  );
}
