import type { Device } from '@agua/shared';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { DeviceAlarms } from '@/features/alarms/components/device-alarms';
import { DeviceControlPanel } from '@/features/devices/components/device-control-panel';

/**
 * A device of the synoptic, opened: the same 'Panel de Control' as on /devices (its commands go
 * through the same confirmation, permissives and progress), over the drawing. Its close button is
 * 'Cerrar panel': a gate's own command is 'Cerrar'.
 */
export function DeviceDialog({ device, canWrite, hasAlarms, onClose }: { device: Device | null; canWrite: boolean; hasAlarms: boolean; onClose: () => void }) {
  return (
    <Dialog open={device !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        data-testid="synoptic-device-dialog"
        closeLabel="Cerrar panel"
        className="block max-h-[calc(100dvh-2rem)] max-w-xl overflow-y-auto bg-card p-0 text-card-foreground"
      >
        {device ? (
          <>
            <DialogTitle className="sr-only">{device.name}</DialogTitle>
            <DialogDescription className="sr-only">Estado y comandos del dispositivo</DialogDescription>
            <DeviceControlPanel device={device} canWrite={canWrite} alarms={hasAlarms ? <DeviceAlarms deviceId={device.id} variant="list" /> : undefined} className="rounded-none border-0 shadow-none" />
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
