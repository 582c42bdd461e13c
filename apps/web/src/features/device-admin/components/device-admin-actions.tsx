import { useState } from 'react';
import { useNavigate } from 'react-router';
import { KeyRound, Pencil, Trash2 } from 'lucide-react';
import type { Device, DeviceType } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { useRotateDeviceKey } from '../api/rotate-device-key';
import { ApiKeyDialog, type IssuedKeyView } from './api-key-dialog';
import { DeleteDeviceDialog } from './delete-device-dialog';
import { EditDeviceDialog } from './edit-device-dialog';

type Open = 'edit' | 'rotate' | 'delete' | null;

/**
 * The manage_devices actions of the 'Panel de Control': 'Editar', 'Rotar clave', 'Eliminar'.
 * Render it only for users who hold manage_devices (the server refuses the others anyway).
 */
export function DeviceAdminActions({ device }: { device: Device }) {
  const [open, setOpen] = useState<Open>(null);
  const [issued, setIssued] = useState<IssuedKeyView | null>(null);
  const rotate = useRotateDeviceKey();
  const navigate = useNavigate();
  const closeOn = (open: boolean) => {
    if (!open) setOpen(null);
  };

  function rotateKey() {
    rotate.mutate(device.id, {
      onSuccess: ({ apiKey }) => {
        toast({ title: 'Clave rotada', description: `La clave anterior de ${device.name} ya no funciona.`, variant: 'success' });
        setIssued({ deviceId: device.id, deviceName: device.name, type: device.type as DeviceType, apiKey, reason: 'rotated' });
      },
      onError: (error) => toast({ title: 'No se pudo rotar la clave', description: error.message, variant: 'destructive' }),
    });
  }

  return (
    <div className="grid gap-3" data-testid="device-admin-actions">
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => setOpen('edit')}>
          <Pencil aria-hidden="true" />
          Editar
        </Button>
        <Button variant="outline" size="sm" onClick={() => setOpen('rotate')} disabled={rotate.isPending}>
          {rotate.isPending ? <Spinner /> : <KeyRound aria-hidden="true" />}
          Rotar clave
        </Button>
        <Button variant="outline" size="sm" onClick={() => setOpen('delete')} className="text-crit-fg">
          <Trash2 aria-hidden="true" />
          Eliminar
        </Button>
      </div>

      <EditDeviceDialog device={device} open={open === 'edit'} onOpenChange={closeOn} />
      <ConfirmDialog
        open={open === 'rotate'}
        onOpenChange={closeOn}
        title="¿Rotar la clave API?"
        description={`La clave actual de ${device.name} dejará de funcionar de inmediato y su sesión MQTT se cerrará. El dispositivo quedará desconectado hasta que cargue la nueva clave, que se mostrará una sola vez.`}
        confirmLabel="Rotar clave"
        destructive
        onConfirm={rotateKey}
      />
      <DeleteDeviceDialog
        device={device}
        open={open === 'delete'}
        onOpenChange={closeOn}
        // The device is gone: leave its ?id= behind, so that the screen does not say 'no encontrado'.
        onDeleted={() => navigate({ search: '' }, { replace: true })}
      />
      <ApiKeyDialog issued={issued} onClose={() => setIssued(null)} />
    </div>
  );
}
