import { useState, type FormEvent } from 'react';
import { Save } from 'lucide-react';
import type { Device } from '@agua/shared';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { focusFirstError, showSubmitError } from '@/components/ui/form-field';
import { toast } from '@/components/ui/use-toast';
import type { DeviceConfigBody } from '../api/create-device';
import { useEditDevice, type EditDeviceInput } from '../api/edit-device';
import { fieldOfDeviceError } from '../utils/device-errors';
import { DEVICE_FIELD_ORDER, deviceFormFrom, parseNumber, type DeviceFormValues } from '../utils/device-form-values';
import { validateDeviceForm } from '../utils/validate-device';
import { DEVICE_FORM_ID, DeviceFormFields } from './device-form-fields';
import { useDeviceFormState } from './device-form-state';

const CONFIG_FIELDS = {
  level_sensor: ['maxLevel', 'warningPct', 'criticalPct', 'offlineAfterS'],
  motorized_gate: ['travelTimeoutS', 'offlineAfterS'],
} as const;

/** Only what changed goes to the server, so that the audit trail names the edited fields. */
function changesOf(before: DeviceFormValues, after: DeviceFormValues): EditDeviceInput['changes'] {
  const changes: EditDeviceInput['changes'] = {};
  if (after.name.trim() !== before.name) changes.name = after.name.trim();
  if (after.location.trim() !== before.location) changes.location = after.location.trim();
  if (after.type === 'level_sensor' && after.waterType !== before.waterType) changes.waterType = after.waterType;
  const config: DeviceConfigBody = {};
  for (const field of CONFIG_FIELDS[after.type]) {
    const next = parseNumber(after[field]);
    if (next !== null && next !== parseNumber(before[field])) config[field] = next;
  }
  if (Object.keys(config).length > 0) changes.config = config;
  return changes;
}

/** 'Editar' in the control panel: name, location, water type, thresholds and timeouts. */
export function EditDeviceDialog({ device, open, onOpenChange }: { device: Device; open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="edit-device-dialog" className="max-h-[calc(100dvh-2rem)] max-w-2xl overflow-y-auto" onInteractOutside={(e) => e.preventDefault()}>
        {open ? <EditDeviceForm device={device} onClose={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function EditDeviceForm({ device, onClose }: { device: Device; onClose: () => void }) {
  const mutation = useEditDevice();
  // The starting point is fixed when the dialog opens; live updates must not rewrite the form.
  const [initial] = useState(() => deviceFormFrom(device));
  const { values, errors, setErrors, onChange } = useDeviceFormState(() => initial);
  const [formError, setFormError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const found = validateDeviceForm(values, false);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstError(DEVICE_FORM_ID, DEVICE_FIELD_ORDER, found);
    const changes = changesOf(initial, values);
    if (Object.keys(changes).length === 0) return onClose();
    try {
      const updated = await mutation.mutateAsync({ deviceId: device.id, changes });
      toast({ title: 'Dispositivo actualizado', description: `Se guardaron los cambios de ${updated?.name ?? device.name}.`, variant: 'success' });
      onClose();
    } catch (error) {
      showSubmitError(error, fieldOfDeviceError(error), { prefix: DEVICE_FORM_ID, order: DEVICE_FIELD_ORDER, setErrors, setFormError });
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-busy={mutation.isPending}>
      <DialogHeader>
        <DialogTitle>Editar dispositivo</DialogTitle>
        <DialogDescription>
          <span className="font-mono">{device.id}</span> · el identificador y el tipo no se pueden cambiar.
        </DialogDescription>
      </DialogHeader>
      <DeviceFormFields values={values} errors={errors} onChange={onChange} creating={false} />
      <FormDialogFooter
        error={formError}
        pending={mutation.isPending}
        onCancel={onClose}
        icon={<Save aria-hidden="true" />}
        label="Guardar cambios"
        pendingLabel="Guardando..."
      />
    </form>
  );
}
