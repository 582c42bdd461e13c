import { Trash2 } from 'lucide-react';
import {
  ALARM_KIND_LABELS,
  ALARM_KINDS_BY_TYPE,
  ALARM_PRIORITIES,
  GATE_STATE_LABELS,
  GATE_STATES,
  INTERLOCK_CONDITION_KINDS,
  LEVEL_OPS,
  type AlarmKind,
  type Device,
  type InterlockConditionKind,
  type LevelOp,
} from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Check, Fieldset } from '@/components/ui/choice';
import { fieldAria, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { CONDITION_KIND_LABELS, OP_LABELS, priorityAtMostText } from '../utils/condition-text';
import { changeKind, devicesForKind, fieldId, type ConditionDraft, type InterlockFieldErrors } from '../utils/interlock-form';

interface ConditionRowProps {
  index: number;
  row: ConditionDraft;
  devices: readonly Device[];
  errors: InterlockFieldErrors;
  canRemove: boolean;
  onChange: (row: ConditionDraft, ...cleared: string[]) => void;
  onRemove: () => void;
}

const KIND_HINTS: Readonly<Record<InterlockConditionKind, string>> = {
  level: 'Se cumple con una lectura válida y reciente que cumple la comparación.',
  alarm: 'Se cumple mientras el dispositivo no tenga una alarma activa de ese tipo o prioridad.',
  gate_state: 'Se cumple mientras la compuerta, en línea, esté en uno de los estados marcados.',
  online: 'Se cumple mientras el dispositivo esté en línea y habilitado.',
};

/** One row of the conditions builder: its kind, its device (of the types that fit) and the kind's own values. */
export function ConditionRow({ index, row, devices, errors, canRemove, onChange, onRemove }: ConditionRowProps) {
  const at = `conditions.${index}`;
  const id = (part: string) => fieldId(`${at}.${part}`);
  const err = (part: string) => errors[`${at}.${part}`];
  const typeOf = (deviceId: string) => devices.find((d) => d.id === deviceId)?.type;
  const choices = devicesForKind(devices, row.kind);
  const unknownDevice = row.deviceId !== '' && !choices.some((d) => d.id === row.deviceId);
  const deviceType = typeOf(row.deviceId);
  const alarmKinds: readonly AlarmKind[] = deviceType ? ALARM_KINDS_BY_TYPE[deviceType] : [];
  const set = (patch: Partial<ConditionDraft>, ...parts: string[]) => onChange({ ...row, ...patch }, ...parts.map((p) => `${at}.${p}`));

  return (
    <li data-testid={`condition-${index}`} className="grid gap-3 rounded-lg border p-3">
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm font-semibold">Condición {index + 1}</p>
        <Button type="button" variant="ghost" size="icon" aria-label={`Quitar la condición ${index + 1}`} disabled={!canRemove} onClick={onRemove}>
          <Trash2 aria-hidden="true" />
        </Button>
      </div>
      <div className="grid min-w-0 gap-3 sm:grid-cols-2">
        <FormField id={id('kind')} label="Tipo" hint={KIND_HINTS[row.kind]} error={err('kind')}>
          <NativeSelect
            {...fieldAria(id('kind'), { hint: true, error: err('kind') })}
            value={row.kind}
            onChange={(e) => onChange(changeKind(row, e.target.value as InterlockConditionKind, typeOf), ...['kind', 'deviceId', 'value', 'maxAgeS', 'alarmKind', 'priorityAtMost', 'in'].map((p) => `${at}.${p}`))}
          >
            {INTERLOCK_CONDITION_KINDS.map((k) => (
              <option key={k} value={k}>
                {CONDITION_KIND_LABELS[k]}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField id={id('deviceId')} label="Dispositivo" error={err('deviceId')}>
          <NativeSelect {...fieldAria(id('deviceId'), { error: err('deviceId') })} value={row.deviceId} onChange={(e) => set({ deviceId: e.target.value, alarmKind: '' }, 'deviceId', 'alarmKind')}>
            <option value="">Elija un dispositivo</option>
            {unknownDevice ? <option value={row.deviceId}>{row.deviceId} (no encontrado)</option> : null}
            {choices.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </NativeSelect>
        </FormField>
      </div>

      {row.kind === 'level' ? (
        <div className="grid min-w-0 gap-3 sm:grid-cols-3">
          <FormField id={id('op')} label="Comparación">
            <NativeSelect id={id('op')} value={row.op} onChange={(e) => set({ op: e.target.value as LevelOp })}>
              {LEVEL_OPS.map((op) => (
                <option key={op} value={op}>
                  {OP_LABELS[op]}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          <FormField id={id('value')} label={row.unit === 'm' ? 'Nivel (m)' : 'Nivel (%)'} error={err('value')}>
            <Input {...fieldAria(id('value'), { error: err('value') })} inputMode="decimal" autoComplete="off" className="tabular-nums" value={row.value} onChange={(e) => set({ value: e.target.value }, 'value')} />
          </FormField>
          <FormField id={id('unit')} label="Unidad">
            <NativeSelect id={id('unit')} value={row.unit} onChange={(e) => set({ unit: e.target.value as 'm' | 'pct' }, 'value')}>
              <option value="m">metros</option>
              <option value="pct">% del nivel máximo</option>
            </NativeSelect>
          </FormField>
          <FormField id={id('maxAgeS')} label="Antigüedad máxima de la lectura (s)" hint="Opcional. Vacío: el tiempo de desconexión del sensor." error={err('maxAgeS')} className="sm:col-span-3">
            <Input
              {...fieldAria(id('maxAgeS'), { hint: true, error: err('maxAgeS') })}
              inputMode="numeric"
              autoComplete="off"
              className="tabular-nums sm:max-w-48"
              value={row.maxAgeS}
              onChange={(e) => set({ maxAgeS: e.target.value }, 'maxAgeS')}
            />
          </FormField>
        </div>
      ) : null}

      {row.kind === 'alarm' ? (
        <div className="grid min-w-0 gap-3 sm:grid-cols-2">
          <FormField id={id('alarmKind')} label="Tipo de alarma" error={err('alarmKind')}>
            <NativeSelect {...fieldAria(id('alarmKind'), { error: err('alarmKind') })} value={row.alarmKind} onChange={(e) => set({ alarmKind: e.target.value as AlarmKind | '' }, 'alarmKind')}>
              <option value="">Cualquiera</option>
              {alarmKinds.map((k) => (
                <option key={k} value={k}>
                  {ALARM_KIND_LABELS[k]}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          <FormField id={id('priorityAtMost')} label="Prioridad" error={err('priorityAtMost')}>
            <NativeSelect {...fieldAria(id('priorityAtMost'), { error: err('priorityAtMost') })} value={row.priorityAtMost} onChange={(e) => set({ priorityAtMost: e.target.value }, 'priorityAtMost')}>
              <option value="">Cualquiera</option>
              {ALARM_PRIORITIES.map((p) => (
                <option key={p} value={String(p)}>
                  {priorityAtMostText(p)}
                </option>
              ))}
            </NativeSelect>
          </FormField>
        </div>
      ) : null}

      {row.kind === 'gate_state' ? (
        <Fieldset id={id('in')} legend="Estados en los que se cumple" error={err('in')}>
          <div className="flex flex-wrap gap-2">
            {GATE_STATES.map((state) => (
              <Check
                key={state}
                checked={row.states.includes(state)}
                onChange={(on) => set({ states: on ? GATE_STATES.filter((s) => s === state || row.states.includes(s)) : row.states.filter((s) => s !== state) }, 'in')}
              >
                {GATE_STATE_LABELS[state]}
              </Check>
            ))}
          </div>
        </Fieldset>
      ) : null}
    </li>
  );
}
