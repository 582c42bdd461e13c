import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Plus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { focusFirstError, showSubmitError } from '@/components/ui/form-field';
import { toast } from '@/components/ui/use-toast';
import { useCreateDevice, type CreateDeviceBody } from '../api/create-device';
import { fieldOfDeviceError } from '../utils/device-errors';
import { DEVICE_FIELD_ORDER, emptyDeviceForm, parseNumber, type DeviceFormValues } from '../utils/device-form-values';
import { validateDeviceForm } from '../utils/validate-device';
import { ApiKeyDialog, type IssuedKeyView } from './api-key-dialog';
import { DEVICE_FORM_ID, DeviceFormFields } from './device-form-fields';
import { useDeviceFormState } from './device-form-state';

/** The request body of a valid form: sensors send thresholds, gates the travel timeout. */
function toBody(v: DeviceFormValues): CreateDeviceBody {
  const offline = parseNumber(v.offlineAfterS);
  const sensor = v.type === 'level_sensor';
  return {
    id: v.id.trim(),
    name: v.name.trim(),
    location: v.location.trim(),
    type: v.type,
    ...(sensor ? { waterType: v.waterType } : {}),
    config: {
      ...(sensor
        ? { maxLevel: parseNumber(v.maxLevel)!, warningPct: parseNumber(v.warningPct)!, criticalPct: parseNumber(v.criticalPct)! }
        : { travelTimeoutS: parseNumber(v.travelTimeoutS)! }),
      ...(offline !== null ? { offlineAfterS: offline } : {}),
    },
  };
}

/** 'Nuevo Dispositivo' (page header of /devices): the form, then the key shown once. */
export function NewDeviceDialog() {
  const [open, setOpen] = useState(false);
  const [issued, setIssued] = useState<IssuedKeyView | null>(null);
  const navigate = useNavigate();
  return (
    <>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogTrigger asChild>
          <Button className="w-full sm:w-auto">
            <Plus aria-hidden="true" />
            Nuevo Dispositivo
          </Button>
        </DialogTrigger>
        <DialogContent data-testid="new-device-dialog" className="max-h-[calc(100dvh-2rem)] max-w-2xl overflow-y-auto" onInteractOutside={(e) => e.preventDefault()}>
          <NewDeviceForm
            onCancel={() => setOpen(false)}
            onCreated={(view) => {
              setOpen(false);
              setIssued(view);
              // Select the new device, so that its control panel is there behind the key dialog.
              navigate({ search: `?id=${encodeURIComponent(view.deviceId)}` });
            }}
          />
        </DialogContent>
      </Dialog>
      <ApiKeyDialog issued={issued} onClose={() => setIssued(null)} />
    </>
  );
}

function NewDeviceForm({ onCancel, onCreated }: { onCancel: () => void; onCreated: (view: IssuedKeyView) => void }) {
  const mutation = useCreateDevice();
  const { values, errors, setErrors, onChange } = useDeviceFormState(emptyDeviceForm);
  const [formError, setFormError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const found = validateDeviceForm(values, true);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstError(DEVICE_FORM_ID, DEVICE_FIELD_ORDER, found);
    try {
      const { device, apiKey } = await mutation.mutateAsync(toBody(values));
      toast({ title: 'Dispositivo creado', description: `${device.name} (${device.id}) está registrado. Guarde su clave API.`, variant: 'success' });
      onCreated({ deviceId: device.id, deviceName: device.name, type: values.type, apiKey, reason: 'created' });
    } catch (error) {
      showSubmitError(error, fieldOfDeviceError(error), { prefix: DEVICE_FORM_ID, order: DEVICE_FIELD_ORDER, setErrors, setFormError });
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-busy={mutation.isPending}>
      <DialogHeader>
        <DialogTitle>Nuevo Dispositivo</DialogTitle>
        <DialogDescription>Registre un ESP32. Al crearlo se mostrará su clave API una sola vez, con la configuración para el firmware.</DialogDescription>
      </DialogHeader>
      <DeviceFormFields values={values} errors={errors} onChange={onChange} creating />
      <FormDialogFooter
        error={formError}
        pending={mutation.isPending}
        onCancel={onCancel}
        icon={<Plus aria-hidden="true" />}
        label="Crear dispositivo"
        pendingLabel="Creando..."
      />
    </form>
  );
}
