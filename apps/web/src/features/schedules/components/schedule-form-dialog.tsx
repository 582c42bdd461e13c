import { useState, type FormEvent } from 'react';
import { Plus, Save } from 'lucide-react';
import { ALARM_PRIORITIES, ALARM_PRIORITY_LABELS, SCHEDULE_LIMITS, type Device, type Schedule, type ScheduleAction } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Choice, Fieldset } from '@/components/ui/choice';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormAlert } from '@/components/ui/form-alert';
import { fieldAria, FormField, showSubmitError } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { useCreateSchedule, useUpdateSchedule } from '../api/schedules';
import {
  NEW_SCHEDULE_VALUES,
  namePlaceholder,
  SCHEDULE_FIELDS,
  scheduleFieldError,
  scheduleFormError,
  toScheduleForm,
  validateSchedule,
  type ScheduleFieldErrors,
  type ScheduleFormValues,
} from '../utils/schedule-form';
import { SchedulePreviewList } from './schedule-preview';
import { WeekdayPicker } from './weekday-picker';

const ID = 'schedule';

interface ScheduleFormDialogProps {
  device: Device;
  /** The saved schedule (kept current by the list); none for 'Nueva programación' until it is created. */
  schedule?: Schedule;
  /** The installation's time zone, named beside the time. */
  timeZone: string | undefined;
  /** A new schedule was created: the dialog goes on as its editor, with its preview. */
  onCreated: (schedule: Schedule) => void;
  onClose: () => void;
}

/**
 * 'Nueva programación' / 'Editar programación'. It stays open after saving, to show the next runs
 * as the server plans them (GET /schedules/{id}/preview); a refusal is shown at the field it names.
 */
export function ScheduleFormDialog(props: ScheduleFormDialogProps) {
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : props.onClose())}>
      <DialogContent
        data-testid="schedule-form-dialog"
        className="max-h-[calc(100dvh-2rem)] max-w-xl overflow-y-auto"
        // A stray click beside the dialog must not lose a half-filled form.
        onInteractOutside={(e) => e.preventDefault()}
      >
        <ScheduleForm {...props} />
      </DialogContent>
    </Dialog>
  );
}

function ScheduleForm({ device, schedule, timeZone, onCreated, onClose }: ScheduleFormDialogProps) {
  const create = useCreateSchedule();
  const update = useUpdateSchedule();
  const pending = create.isPending || update.isPending;
  const [values, setValues] = useState<ScheduleFormValues>(() => (schedule ? toScheduleForm(schedule) : NEW_SCHEDULE_VALUES));
  const [errors, setErrors] = useState<ScheduleFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);

  const set = <K extends keyof ScheduleFormValues>(key: K, value: ScheduleFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    const field = key as keyof ScheduleFieldErrors;
    setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  };

  const targets = { prefix: ID, order: SCHEDULE_FIELDS, setErrors, setFormError };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const checked = validateSchedule(values);
    if ('errors' in checked) {
      setErrors(checked.errors);
      return showSubmitError(null, { field: Object.keys(checked.errors)[0] as keyof ScheduleFieldErrors, message: Object.values(checked.errors)[0]! }, targets);
    }
    setErrors({});
    const failed = (error: Error) => {
      const field = scheduleFieldError(error);
      if (field) showSubmitError(error, field, targets);
      else setFormError(scheduleFormError(error));
    };
    if (schedule) {
      update.mutate(
        { id: schedule.id, patch: checked.body },
        { onSuccess: (saved) => toast({ title: 'Programación guardada', description: saved.name, variant: 'success' }), onError: failed },
      );
    } else {
      create.mutate(
        { deviceId: device.id, ...checked.body },
        {
          onSuccess: (saved) => {
            toast({ title: 'Programación creada', description: saved.name, variant: 'success' });
            onCreated(saved);
          },
          onError: failed,
        },
      );
    }
  }
  const setAction = (action: ScheduleAction) => {
    setValues((v) => ({ ...v, action }));
    setErrors((e) => (e.action || e.durationMin ? { ...e, action: undefined, durationMin: undefined } : e));
  };

  return (
    <form onSubmit={onSubmit} noValidate className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-5" aria-busy={pending}>
      <DialogHeader>
        <DialogTitle>{schedule ? 'Editar programación' : 'Nueva programación'}</DialogTitle>
        <DialogDescription>
          {device.name}: abre o cierra la compuerta a una hora, los días elegidos, por el mismo camino que un comando y con los mismos enclavamientos.
        </DialogDescription>
      </DialogHeader>

      <div className="grid min-w-0 gap-4 sm:grid-cols-2">
        <Fieldset id={`${ID}-action`} legend="Acción" error={errors.action}>
          <div className="grid grid-cols-2 gap-2">
            <Choice name={`${ID}-action-choice`} checked={values.action === 'abrir'} onChange={() => setAction('abrir')}>
              Abrir
            </Choice>
            <Choice name={`${ID}-action-choice`} checked={values.action === 'cerrar'} onChange={() => setAction('cerrar')}>
              Cerrar
            </Choice>
          </div>
        </Fieldset>
        <FormField id={`${ID}-time`} label="Hora" hint={timeZone ? `Hora de la instalación (${timeZone}).` : 'Hora de la instalación.'} error={errors.time}>
          <Input type="time" className="tabular-nums" {...fieldAria(`${ID}-time`, { hint: true, error: errors.time })} value={values.time} onChange={(e) => set('time', e.target.value)} />
        </FormField>
      </div>

      <Fieldset id={`${ID}-days`} legend="Días" error={errors.days}>
        <WeekdayPicker id={`${ID}-days`} days={values.days} onChange={(days) => set('days', days)} />
      </Fieldset>

      {values.action === 'abrir' ? (
        <FormField
          id={`${ID}-durationMin`}
          label="Cerrar después de (minutos)"
          hint={`Opcional, de ${SCHEDULE_LIMITS.durationMinMin} a ${SCHEDULE_LIMITS.durationMinMax}. Mientras tanto la compuerta sigue la programación; sin duración queda abierta.`}
          error={errors.durationMin}
        >
          <Input
            type="number"
            inputMode="numeric"
            min={SCHEDULE_LIMITS.durationMinMin}
            max={SCHEDULE_LIMITS.durationMinMax}
            step={1}
            className="tabular-nums sm:w-40"
            placeholder="Sin cierre"
            {...fieldAria(`${ID}-durationMin`, { hint: true, error: errors.durationMin })}
            value={values.durationMin}
            onChange={(e) => set('durationMin', e.target.value)}
          />
        </FormField>
      ) : null}

      <div className="grid min-w-0 gap-4 sm:grid-cols-2">
        <FormField id={`${ID}-name`} label="Nombre" hint="Vacío: la acción y la hora." error={errors.name}>
          <Input
            {...fieldAria(`${ID}-name`, { hint: true, error: errors.name })}
            autoComplete="off"
            maxLength={SCHEDULE_LIMITS.nameMax}
            placeholder={namePlaceholder(values)}
            value={values.name}
            onChange={(e) => set('name', e.target.value)}
          />
        </FormField>
        <FormField id={`${ID}-alarmPriority`} label="Prioridad de la alarma" hint="Si una ejecución se omite o se pierde: «Programación omitida»." error={errors.alarmPriority}>
          <NativeSelect {...fieldAria(`${ID}-alarmPriority`, { hint: true, error: errors.alarmPriority })} value={values.alarmPriority} onChange={(e) => set('alarmPriority', e.target.value)}>
            {ALARM_PRIORITIES.map((p) => (
              <option key={p} value={String(p)}>
                {p} · {ALARM_PRIORITY_LABELS[p]}
              </option>
            ))}
          </NativeSelect>
        </FormField>
      </div>

      <label className="flex min-h-11 cursor-pointer items-center justify-between gap-4 rounded-lg border p-3">
        <span className="grid gap-0.5">
          <span className="text-sm font-medium">Activa</span>
          <span className="text-xs text-muted-foreground">{values.enabled ? 'Se ejecuta a sus horas.' : 'Desactivada: no se ejecuta.'}</span>
        </span>
        <Switch checked={values.enabled} onChange={(on) => set('enabled', on)} />
      </label>

      <section aria-labelledby={`${ID}-preview-title`} className="grid gap-2 border-t pt-4">
        <h3 id={`${ID}-preview-title`} className="text-sm font-semibold">
          Próximas ejecuciones
        </h3>
        {schedule ? (
          <>
            <p className="text-xs text-muted-foreground">Según lo guardado, en hora de la instalación; el veredicto, con los enclavamientos y el estado de la compuerta de ahora.</p>
            <SchedulePreviewList schedule={schedule} device={device} />
          </>
        ) : (
          <p className="text-sm text-muted-foreground">Aparecen al crear la programación.</p>
        )}
      </section>

      <FormAlert message={formError} />
      <DialogFooter>
        {/* Not 'Cerrar': on a gate's form that is the action too. */}
        <Button type="button" variant="outline" onClick={onClose}>
          {schedule ? 'Listo' : 'Cancelar'}
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? <Spinner /> : schedule ? <Save aria-hidden="true" /> : <Plus aria-hidden="true" />}
          {pending ? 'Guardando...' : schedule ? 'Guardar cambios' : 'Crear programación'}
        </Button>
      </DialogFooter>
    </form>
  );
}
