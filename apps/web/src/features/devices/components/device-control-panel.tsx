import { useEffect, useRef, type ReactNode } from 'react';
import { MapPin, SlidersHorizontal } from 'lucide-react';
import { DEVICE_TYPE_LABELS, WATER_TYPE_LABELS, type Device } from '@agua/shared';
import { Card } from '@/components/ui/card';
import { CommandProgress } from '@/components/device/command-progress';
import { ConnectionBadge } from '@/components/device/connection-badge';
import { RelativeTime } from '@/components/device/relative-time';
import { WaterFigures } from '@/components/device/water-figures';

import { formatDateTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import { GateSchedules } from '@/features/schedules/components/gate-schedules';
import { DeviceCommandButtons } from './device-command-buttons';
import { DeviceCommandHistory } from './device-command-history';
import { DeviceReading } from './device-reading';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-0.5 py-2">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-sm font-medium">{children}</dd>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="border-t px-4 py-4 sm:px-5">
      <h3 className="mb-3 text-xs font-semibold tracking-wide text-muted-foreground uppercase">{title}</h3>
      {children}
    </section>
  );
}

/**
 * 'Panel de Control' of the selected device: state, commands, information, command history.
 * The route places the device's trend chart beside it, full width (the history feature).
 * `admin` is a slot the route fills (features do not import each other): the device-administration
 * actions, for manage_devices only; `alarms` another: the device's open alarms (the alarms feature).
 */
export function DeviceControlPanel({
  device,
  canWrite,
  admin,
  alarms,
  className,
}: {
  device: Device;
  canWrite: boolean;
  admin?: ReactNode;
  alarms?: ReactNode;
  /** The panel opened over a site's synoptic drops its card frame (the dialog is the frame). */
  className?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const online = device.status === 'online';

  // On a phone the panel sits below the list: bring it into view when a device is picked.
  useEffect(() => {
    if (window.matchMedia('(max-width: 1023px)').matches) ref.current?.scrollIntoView({ block: 'start' });
  }, [device.id]);

  return (
    <Card ref={ref} aria-labelledby="control-panel-title" className={cn('scroll-mt-20 overflow-hidden', className)}>
      <div className="p-4 sm:p-5">
        <h2 id="control-panel-title" className="flex items-center gap-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
          <SlidersHorizontal aria-hidden="true" className="size-4" />
          Panel de Control
        </h2>
        <div className="mt-3 flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <p className="text-lg leading-tight font-semibold">{device.name}</p>
            <p className="mt-1 flex items-center gap-1 text-sm text-muted-foreground">
              <MapPin aria-hidden="true" className="size-3.5" />
              {device.location}
            </p>
          </div>
          <ConnectionBadge device={device} />
        </div>
        <div className="mt-4">
          <DeviceReading device={device} />
        </div>
        <WaterFigures device={device} className="mt-3" />
      </div>

      {alarms ? <Section title="Alarmas activas">{alarms}</Section> : null}

      <Section title="Comandos">
        {online ? (
          <div className="grid gap-3">
            <DeviceCommandButtons device={device} canWrite={canWrite} />
            {!canWrite ? <p className="text-xs text-muted-foreground">Su rol solo permite consultar: los comandos están deshabilitados.</p> : null}
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">El dispositivo está desconectado: los comandos no están disponibles.</p>
        )}
      </Section>

      {device.type === 'motorized_gate' ? <Section title="Programación"><GateSchedules device={device} /></Section> : null}

      <Section title="Información">
        <dl className="divide-y">
          <Row label="Tipo">{DEVICE_TYPE_LABELS[device.type] ?? device.type}</Row>
          {device.waterType ? <Row label="Tipo de agua">{WATER_TYPE_LABELS[device.waterType!] ?? device.waterType}</Row> : null}
          <Row label="ID">
            <span className="font-mono text-xs">{device.id}</span>
          </Row>
          <Row label="Estado administrativo">{device.enabled ? 'Habilitado' : 'Deshabilitado'}</Row>
          <Row label="Última conexión">
            {device.lastSeen ? (
              <span className="text-right">
                {formatDateTime(device.lastSeen)} <span className="text-muted-foreground">(<RelativeTime value={device.lastSeen} />)</span>
              </span>
            ) : (
              'Nunca'
            )}
          </Row>
          {device.lastCommand ? (
            <Row label="Último comando">
              <span className="grid justify-items-end gap-0.5">
                <CommandProgress command={device.lastCommand} />
                <span className="text-xs font-normal text-muted-foreground">
                  {device.lastCommand.issuedBy?.name ?? 'Sistema'} · {formatDateTime(device.lastCommand.issuedAt)}
                </span>
              </span>
            </Row>
          ) : null}
        </dl>
      </Section>

      <Section title="Últimos comandos">
        <DeviceCommandHistory deviceId={device.id} />
      </Section>

      {admin ? <Section title="Administración">{admin}</Section> : null}
    </Card>
  );
}
