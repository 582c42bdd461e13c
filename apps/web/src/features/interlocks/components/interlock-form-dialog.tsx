import { useMemo, useState, type FormEvent } from 'react';
import { Plus, Save } from 'lucide-react';
import { commandLabel, INTERLOCK_LIMITS, INTERLOCK_MODE_LABELS, INTERLOCK_MODES, type Device, type Interlock } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Choice, Fieldset } from '@/components/ui/choice';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { fieldAria, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { isApiError } from '@/lib/api-client';
import { getInterlock, useCreateInterlock, useUpdateInterlock } from '../api/interlocks';
import { MODE_HINTS } from '../utils/condition-text';
import {
  fieldId,
  fieldOrder,
  formFieldOf,
  fromInterlock,
  guardableCommands,
  newCondition,
  newInterlockValues,
  toPatch,
  validateInterlock,
  type ConditionDraft,
  type InterlockFieldErrors,
  type InterlockFormValues,
} from '../utils/interlock-form';
import { ConditionRow } from './condition-row';
import { PermissiveCheck } from './permissive-check';

interface InterlockFormDialogProps {
  /** The interlock to edit; none for 'Nuevo enclavamiento'. */
  interlock?: Interlock;
  devices: Device[];
  onClose: () => void;
}

/** 'Nuevo enclavamiento' / 'Editar enclavamiento'. Mounted per opening, so its fields start from the interlock. */
export function InterlockFormDialog({ interlock, devices, onClose }: InterlockFormDialogProps) {
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        data-testid="interlock-form-dialog"
        className="max-h-[calc(100dvh-2rem)] max-w-2xl overflow-y-auto"
        // A stray click beside the dialog must not lose a half-built interlock.
        onInteractOutside={(e) => e.preventDefault()}
      >
        <InterlockForm interlock={interlock} devices={devices} onClose={onClose} />
      </DialogContent>
    </Dialog>
  );
}

function focusFirst(values: InterlockFormValues, errors: InterlockFieldErrors): void {
  const first = fieldOrder(values).find((f) => errors[f]) ?? Object.keys(errors)[0];
  if (first) requestAnimationFrame(() => document.getElementById(fieldId(first))?.focus());
}

function InterlockForm({ interlock, devices, onClose }: InterlockFormDialogProps) {
  const create = useCreateInterlock();
  const update = useUpdateInterlock();
  const mutation = interlock ? update : create;
  const [values, setValues] = useState<InterlockFormValues>(() => (interlock ? fromInterlock(interlock) : newInterlockValues()));
  // The version the form was read at: a PATCH on another one is refused (409), and the form reloads.
  const [version, setVersion] = useState(interlock?.version ?? 0);
  const [errors, setErrors] = useState<InterlockFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);

  const targets = useMemo(() => devices.filter((d) => guardableCommands(d.type).length > 0).sort((a, b) => (a.type === b.type ? a.name.localeCompare(b.name, 'es') : a.type === 'motorized_gate' ? -1 : 1)), [devices]);
  const target = devices.find((d) => d.id === values.deviceId);
  const commands = guardableCommands(target?.type);

  const clear = (...keys: string[]) => setErrors((e) => (keys.some((k) => e[k]) ? { ...e, ...Object.fromEntries(keys.map((k) => [k, undefined])) } : e));
  const set = <K extends keyof InterlockFormValues>(key: K, value: InterlockFormValues[K], ...clears: string[]) => {
    setValues((v) => ({ ...v, [key]: value }));
    clear(key, ...clears);
  };
  const setRow = (index: number, row: ConditionDraft, ...cleared: string[]) => {
    setValues((v) => ({ ...v, conditions: v.conditions.map((r, i) => (i === index ? row : r)) }));
    clear(...cleared);
  };
  // Row errors are keyed by position: removing a row takes them all away rather than moving them.
  const withoutRowErrors = () => setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !k.startsWith('conditions'))));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const checked = validateInterlock(values);
    if ('errors' in checked) {
      setErrors(checked.errors);
      return focusFirst(values, checked.errors);
    }
    setErrors({});
    const done = (saved: Interlock) => {
      toast({ title: interlock ? 'Enclavamiento guardado' : 'Enclavamiento creado', description: saved.name, variant: 'success' });
      onClose();
    };
    const failed = async (error: Error) => {
      if (isApiError(error) && error.code === 'INTERLOCK_INVALID') {
        const details = (error.details ?? {}) as { field?: unknown; reason?: unknown };
        const reason = typeof details.reason === 'string' ? details.reason : error.message;
        const field = formFieldOf(details.field);
        if (field) {
          const next = { [field]: reason };
          setErrors(next);
          return focusFirst(values, next);
        }
        return setFormError(reason);
      }
      if (interlock && isApiError(error) && error.code === 'VERSION_CONFLICT') {
        try {
          const fresh = await getInterlock(interlock.id);
          setValues(fromInterlock(fresh));
          setVersion(fresh.version);
          setFormError('Otra persona cambió este enclavamiento mientras lo editaba: el formulario muestra ahora lo guardado. Revise los cambios y guarde de nuevo.');
        } catch (reload) {
          setFormError(`Otra persona cambió este enclavamiento y no se pudo volver a cargar: ${reload instanceof Error ? reload.message : String(reload)}`);
        }
        return;
      }
      setFormError(error.message);
    };
    if (interlock) update.mutate({ id: interlock.id, patch: toPatch(checked.input, version) }, { onSuccess: done, onError: (e) => void failed(e) });
    else create.mutate(checked.input, { onSuccess: done, onError: (e) => void failed(e) });
  }

  const full = values.conditions.length >= INTERLOCK_LIMITS.conditionsMax;
  return (
    <form onSubmit={onSubmit} noValidate className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-5" aria-busy={mutation.isPending}>
      <DialogHeader>
        <DialogTitle>{interlock ? 'Editar enclavamiento' : 'Nuevo enclavamiento'}</DialogTitle>
        <DialogDescription>Qué comando vigila, qué condiciones deben cumplirse para enviarlo y qué pasa si alguna no se cumple.</DialogDescription>
      </DialogHeader>

      <div className="grid min-w-0 gap-4 sm:grid-cols-2">
        <FormField id={fieldId('deviceId')} label="Dispositivo que recibe el comando" hint={interlock ? 'No se puede cambiar: para otro dispositivo, cree otro enclavamiento.' : undefined} error={errors.deviceId}>
          <NativeSelect
            {...fieldAria(fieldId('deviceId'), { hint: Boolean(interlock), error: errors.deviceId })}
            disabled={Boolean(interlock)}
            value={values.deviceId}
            onChange={(e) => {
              const type = devices.find((d) => d.id === e.target.value)?.type;
              const next = guardableCommands(type);
              setValues((v) => ({ ...v, deviceId: e.target.value, command: next.includes(v.command) ? v.command : (next[0] ?? '') }));
              clear('deviceId', 'command');
            }}
          >
            <option value="">Elija un dispositivo</option>
            {values.deviceId && !target ? <option value={values.deviceId}>{values.deviceId} (no encontrado)</option> : null}
            {targets.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField id={fieldId('command')} label="Comando" hint="«Detener» nunca se bloquea: detener una compuerta es el acto seguro." error={errors.command}>
          <NativeSelect {...fieldAria(fieldId('command'), { hint: true, error: errors.command })} value={values.command} onChange={(e) => set('command', e.target.value)}>
            {commands.length === 0 ? <option value="">Elija antes el dispositivo</option> : null}
            {values.command && !commands.includes(values.command) ? <option value={values.command}>{commandLabel(values.command)}</option> : null}
            {commands.map((c) => (
              <option key={c} value={c}>
                {commandLabel(c)}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField id={fieldId('name')} label="Nombre" error={errors.name} className="sm:col-span-2">
          <Input
            {...fieldAria(fieldId('name'), { error: errors.name })}
            autoComplete="off"
            maxLength={INTERLOCK_LIMITS.nameMax}
            placeholder="Tanque de agua limpia no lleno"
            value={values.name}
            onChange={(e) => set('name', e.target.value)}
          />
        </FormField>
      </div>

      <Fieldset id={fieldId('mode')} legend="Si alguna condición no se cumple" hint={MODE_HINTS[values.mode]} error={errors.mode}>
        <div className="grid gap-2 sm:grid-cols-2">
          {INTERLOCK_MODES.map((mode) => (
            <Choice key={mode} name={`${fieldId('mode')}-choice`} checked={values.mode === mode} onChange={() => set('mode', mode)}>
              {INTERLOCK_MODE_LABELS[mode]}
            </Choice>
          ))}
        </div>
      </Fieldset>

      <label className="flex min-h-11 cursor-pointer items-center justify-between gap-4 rounded-lg border p-3">
        <span className="grid gap-0.5">
          <span className="text-sm font-medium">Activo</span>
          <span className="text-xs text-muted-foreground">{values.enabled ? 'Se comprueba antes de cada comando.' : 'Desactivado: no se comprueba.'}</span>
        </span>
        <Switch checked={values.enabled} onChange={(on) => set('enabled', on)} />
      </label>

      <Fieldset
        id={fieldId('conditions')}
        legend="Condiciones (deben cumplirse todas)"
        hint={`De ${INTERLOCK_LIMITS.conditionsMin} a ${INTERLOCK_LIMITS.conditionsMax}. El comando se permite solo si se cumplen todas a la vez.`}
        error={errors.conditions}
      >
        <ol className="grid gap-3">
          {values.conditions.map((row, i) => (
            <ConditionRow
              key={row.key}
              index={i}
              row={row}
              devices={devices}
              errors={errors}
              canRemove={values.conditions.length > INTERLOCK_LIMITS.conditionsMin}
              onChange={(next, ...cleared) => setRow(i, next, ...cleared)}
              onRemove={() => {
                setValues((v) => ({ ...v, conditions: v.conditions.filter((_, j) => j !== i) }));
                withoutRowErrors();
              }}
            />
          ))}
        </ol>
        <Button
          type="button"
          variant="outline"
          className="justify-self-start"
          disabled={full}
          onClick={() => {
            setValues((v) => ({ ...v, conditions: [...v.conditions, newCondition()] }));
            clear('conditions');
          }}
        >
          <Plus aria-hidden="true" />
          Añadir condición
        </Button>
      </Fieldset>

      {values.deviceId && values.command ? (
        <PermissiveCheck deviceId={values.deviceId} command={values.command} note="Prueba los enclavamientos guardados de este comando, no los cambios sin guardar." />
      ) : null}

      <FormDialogFooter
        error={formError}
        pending={mutation.isPending}
        onCancel={onClose}
        icon={interlock ? <Save aria-hidden="true" /> : <Plus aria-hidden="true" />}
        label={interlock ? 'Guardar' : 'Crear enclavamiento'}
        pendingLabel="Guardando..."
      />
    </form>
  );
}
