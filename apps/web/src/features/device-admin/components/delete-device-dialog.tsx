import { useState, type FormEvent } from 'react';
import { Trash2 } from 'lucide-react';
import type { Device } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormAlert } from '@/components/ui/form-alert';
import { fieldAria, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { useDeleteDevice } from '../api/delete-device';

interface DeleteDeviceDialogProps {
  device: Device;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDeleted: () => void;
}

/**
 * 'Eliminar' asks for the device id to be typed: deleting cuts a device in the field off at once,
 * and with 'Borrar también el historial' it destroys records regulators may ask for.
 */
export function DeleteDeviceDialog({ device, open, onOpenChange, onDeleted }: DeleteDeviceDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="delete-device-dialog" className="max-h-[calc(100dvh-2rem)] max-w-lg overflow-y-auto" onInteractOutside={(e) => e.preventDefault()}>
        {open ? <DeleteDeviceForm device={device} onClose={() => onOpenChange(false)} onDeleted={onDeleted} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function DeleteDeviceForm({ device, onClose, onDeleted }: { device: Device; onClose: () => void; onDeleted: () => void }) {
  const mutation = useDeleteDevice();
  const [typed, setTyped] = useState('');
  const [purge, setPurge] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const matches = typed.trim() === device.id;
  const id = 'delete-device-confirm';
  const hint = `Escriba ${device.id} para confirmar.`;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!matches) return;
    setFormError(null);
    try {
      await mutation.mutateAsync({ deviceId: device.id, purge });
      toast({
        title: 'Dispositivo eliminado',
        description: purge ? `${device.name} y todo su historial se han borrado.` : `${device.name} se ha retirado; su historial se conserva y puede exportarse.`,
        variant: 'success',
      });
      onClose();
      onDeleted();
    } catch (error) {
      setFormError(error instanceof Error ? error.message : String(error));
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-busy={mutation.isPending}>
      <DialogHeader>
        <DialogTitle>¿Eliminar dispositivo?</DialogTitle>
        <DialogDescription>
          {device.name} (<span className="font-mono">{device.id}</span>) desaparecerá de las listas y su clave API dejará de funcionar al instante.
        </DialogDescription>
      </DialogHeader>

      <div className="grid gap-3 rounded-lg border p-4">
        <label className="flex min-h-11 cursor-pointer items-start gap-3">
          <input
            type="checkbox"
            checked={purge}
            onChange={(e) => setPurge(e.target.checked)}
            aria-describedby="delete-device-purge-help"
            className="mt-0.5 size-5 shrink-0 accent-destructive"
          />
          <span className="text-sm font-medium">Borrar también el historial</span>
        </label>
        <p id="delete-device-purge-help" className="text-sm text-muted-foreground">
          {purge ? (
            <>
              Se borrarán <strong className="text-crit-fg">todas sus lecturas y comandos</strong>, sin posibilidad de recuperarlos, y el identificador quedará libre.
            </>
          ) : (
            'Sin esta opción el historial se conserva (los reguladores pueden pedirlo) y se puede seguir exportando a Excel; el identificador no podrá reutilizarse.'
          )}
        </p>
      </div>

      <FormField id={id} label="Confirmación" hint={hint}>
        <Input
          {...fieldAria(id, { hint })}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          className="font-mono"
          placeholder={device.id}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
        />
      </FormField>
      <FormAlert message={formError} />
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          Cancelar
        </Button>
        <Button type="submit" variant="destructive" disabled={!matches || mutation.isPending}>
          {mutation.isPending ? <Spinner /> : <Trash2 aria-hidden="true" />}
          {purge ? 'Eliminar con historial' : 'Eliminar dispositivo'}
        </Button>
      </DialogFooter>
    </form>
  );
}
