import { Ban } from 'lucide-react';
import type { Device } from '@agua/shared';
import { Badge } from '@/components/ui/badge';

/** 'En Línea' / 'Desconectado' (seed words), plus 'Deshabilitado' when an admin disabled it. */
export function ConnectionBadge({ device }: { device: Pick<Device, 'status' | 'enabled'> }) {
  const online = device.status === 'online';
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <Badge tone={online ? 'ok' : 'off'}>
        <span aria-hidden="true" className={online ? 'size-2 rounded-full bg-ok' : 'size-2 rounded-full bg-off'} />
        {online ? 'En Línea' : 'Desconectado'}
      </Badge>
      {!device.enabled ? (
        <Badge tone="outline">
          <Ban aria-hidden="true" />
          Deshabilitado
        </Badge>
      ) : null}
    </span>
  );
}
