import { HardDrive } from 'lucide-react';
import type { StorageStatus } from '@agua/shared';
import { formatBytes } from '@/lib/format';
import { useStorageStatus } from '../api/get-storage-status';

const FAULT_TEXT: Record<NonNullable<StorageStatus['fault']>['code'], string> = {
  STORAGE_FULL: 'Almacenamiento lleno: el servidor no puede guardar lecturas.',
  STORAGE_UNAVAILABLE: 'Almacenamiento no disponible: el servidor no puede guardar lecturas.',
};

function lowSpaceText(freeBytes: number): string {
  return `Espacio en disco bajo: quedan ${formatBytes(freeBytes)} libres en el servidor. Libere espacio o amplíe el disco para no perder lecturas.`;
}

/**
 * Warns the people who run the installation (manage_devices) that the server's disk is filling
 * up, before readings are refused, and that it is refusing them once it is full.
 */
export function StorageBanner({ enabled }: { enabled: boolean }) {
  const { data } = useStorageStatus(enabled);
  if (!enabled || !data || (!data.fault && !data.low)) return null;
  const fault = data.fault !== null;
  return (
    <div
      role={fault ? 'alert' : 'status'}
      className={
        fault
          ? 'mb-6 flex items-start gap-3 rounded-lg border border-crit/30 bg-crit/8 px-4 py-3 text-sm font-medium text-crit-fg'
          : 'mb-6 flex items-start gap-3 rounded-lg border border-warn/40 bg-warn/10 px-4 py-3 text-sm font-medium text-warn-fg'
      }
    >
      <HardDrive className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <p>{data.fault ? FAULT_TEXT[data.fault.code] : lowSpaceText(data.freeBytes)}</p>
    </div>
  );
}
