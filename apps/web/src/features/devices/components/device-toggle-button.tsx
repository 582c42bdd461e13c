import { Plug, Unplug } from 'lucide-react';
import { UI_TEXTS, type Device } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { isApiError } from '@/lib/api-client';
import { useUpdateDevice } from '../api/update-device';

/** Administrative enable/disable: 'Desconectar' on an enabled device, 'Conectar' on a disabled one. */
export function DeviceToggleButton({ device, className }: { device: Device; className?: string }) {
  const mutation = useUpdateDevice();
  const label = device.enabled ? 'Desconectar' : 'Conectar';
  function onClick() {
    mutation.mutate(
      { deviceId: device.id, changes: { enabled: !device.enabled } },
      {
        onSuccess: () => toast({ title: UI_TEXTS.deviceToggledTitle, description: UI_TEXTS.deviceToggledDescription, variant: 'success' }),
        onError: (error) => {
          if (isApiError(error) && error.status === 403) {
            toast({ title: UI_TEXTS.accessDeniedTitle, description: UI_TEXTS.toggleDenied, variant: 'destructive' });
          } else {
            toast({ title: 'No se pudo cambiar el estado', description: error.message, variant: 'destructive' });
          }
        },
      },
    );
  }
  return (
    <Button variant={device.enabled ? 'outline' : 'secondary'} size="sm" onClick={onClick} disabled={mutation.isPending} className={className}>
      {mutation.isPending ? <Spinner /> : device.enabled ? <Unplug aria-hidden="true" /> : <Plug aria-hidden="true" />}
      {label}
    </Button>
  );
}
