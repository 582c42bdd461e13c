import { Dialog as DialogPrimitive } from 'radix-ui';
import { X } from 'lucide-react';
import type { Device } from '@agua/shared';
import { DialogOverlay } from '@/components/ui/dialog';
import { DeviceAlarms } from '@/features/alarms/components/device-alarms';
import { DeviceControlPanel } from '@/features/devices/components/device-control-panel';

/**
 * A device of the synoptic, opened: the same 'Panel de Control' as on /devices (its commands go
 * through the same confirmation, permissives and progress), over the drawing. Its close button is
 * 'Cerrar panel': a gate's own command is 'Cerrar'.
 */
export function DeviceDialog({ device, canWrite, hasAlarms, onClose }: { device: Device | null; canWrite: boolean; hasAlarms: boolean; onClose: () => void }) {
  return (
    <DialogPrimitive.Root open={device !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogPrimitive.Portal>
        <DialogOverlay />
        <DialogPrimitive.Content
          data-testid="synoptic-device-dialog"
          className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-xl -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl border bg-card shadow-lg data-[state=open]:animate-zoom-in"
        >
          {device ? (
            <>
              <DialogPrimitive.Title className="sr-only">{device.name}</DialogPrimitive.Title>
              <DialogPrimitive.Description className="sr-only">Estado y comandos del dispositivo</DialogPrimitive.Description>
              <DeviceControlPanel device={device} canWrite={canWrite} alarms={hasAlarms ? <DeviceAlarms deviceId={device.id} variant="list" /> : undefined} className="rounded-none border-0 shadow-none" />
            </>
          ) : null}
          <DialogPrimitive.Close
            aria-label="Cerrar panel"
            className="absolute top-3 right-3 inline-flex size-9 items-center justify-center rounded-md text-muted-foreground hover:bg-accent hover:text-foreground"
          >
            <X className="size-4" aria-hidden="true" />
          </DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
