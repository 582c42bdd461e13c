import type { ReactNode } from 'react';
import { DEVICE_TYPE_LABELS, DEVICE_TYPES, WATER_TYPE_LABELS, WATER_TYPES, type DeviceType, type WaterType } from '@agua/shared';
import { fieldAria, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import type { DeviceField, DeviceFieldErrors, DeviceFormValues } from '../utils/device-form-values';

export const DEVICE_FORM_ID = 'device-form';

interface DeviceFormFieldsProps {
  values: DeviceFormValues;
  errors: DeviceFieldErrors;
  onChange: <K extends DeviceField>(field: K, value: DeviceFormValues[K]) => void;
  /** Creating: id and type can be chosen; editing: they are fixed. */
  creating: boolean;
}

const ID_HINT = "De 3 a 64 caracteres: minúsculas, números, '_' o '-' (p. ej. esp32_nivel_03). Es también el client id MQTT y no se puede cambiar.";
const HINTS: Partial<Record<DeviceField, string>> = {
  maxLevel: 'Altura útil del depósito o canal.',
  warningPct: '% del nivel máximo (60 por defecto).',
  criticalPct: '% del nivel máximo (85 por defecto).',
  travelTimeoutS: 'Segundos para abrir o cerrar del todo; si no llega, se marca falla (120 por defecto).',
};

function Group({ title, children, columns = 2 }: { title: string; children: ReactNode; columns?: 2 | 3 }) {
  return (
    <fieldset className={columns === 3 ? 'grid gap-4 sm:grid-cols-3' : 'grid gap-4 sm:grid-cols-2'}>
      <legend className="mb-3 text-xs font-semibold tracking-wide text-muted-foreground uppercase">{title}</legend>
      {children}
    </fieldset>
  );
}

/** The fields of 'Nuevo Dispositivo' and of 'Editar'; thresholds only for sensors, travel only for gates. */
export function DeviceFormFields({ values: v, errors, onChange, creating }: DeviceFormFieldsProps) {
  const id = (field: DeviceField) => `${DEVICE_FORM_ID}-${field}`;
  const offlineHint = creating
    ? 'Opcional. Segundos sin noticias tras los que se muestra desconectado; vacío = valor del servidor (15 s). Útil si el dispositivo duerme entre lecturas.'
    : 'Segundos sin noticias tras los que se muestra desconectado.';
  const hintOf = (field: DeviceField) => (field === 'offlineAfterS' ? offlineHint : HINTS[field]);
  const text = (field: DeviceField, opts: { suffix?: string; inputMode?: 'decimal' | 'numeric'; } = {}) => {
    const input = (
      <Input
        {...fieldAria(id(field), { hint: hintOf(field), error: errors[field] })}
        autoComplete="off"
        inputMode={opts.inputMode}
        className={opts.suffix ? 'pr-12' : undefined}
        value={v[field]}
        onChange={(e) => onChange(field, e.target.value)}
      />
    );
    if (!opts.suffix) return input;
    return (
      <div className="relative">
        {input}
        <span aria-hidden="true" className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2 text-sm text-muted-foreground">
          {opts.suffix}
        </span>
      </div>
    );
  };
  const sensor = v.type === 'level_sensor';

  return (
    <div className="grid gap-6">
      <Group title="Identificación">
        {creating ? (
          <FormField id={id('id')} label="Identificador (ID)" hint={ID_HINT} error={errors.id} className="sm:col-span-2">
            <Input
              {...fieldAria(id('id'), { hint: ID_HINT, error: errors.id })}
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              className="font-mono"
              value={v.id}
              onChange={(e) => onChange('id', e.target.value)}
            />
          </FormField>
        ) : null}
        <FormField id={id('name')} label="Nombre" error={errors.name}>
          {text('name')}
        </FormField>
        <FormField id={id('location')} label="Ubicación" error={errors.location}>
          {text('location')}
        </FormField>
        {creating ? (
          <FormField id={id('type')} label="Tipo" error={errors.type}>
            <NativeSelect {...fieldAria(id('type'), { error: errors.type })} value={v.type} onChange={(e) => onChange('type', e.target.value as DeviceType)}>
              {DEVICE_TYPES.map((t) => (
                <option key={t} value={t}>
                  {DEVICE_TYPE_LABELS[t]}
                </option>
              ))}
            </NativeSelect>
          </FormField>
        ) : null}
        {sensor ? (
          <FormField id={id('waterType')} label="Tipo de agua" error={errors.waterType}>
            <NativeSelect {...fieldAria(id('waterType'), { error: errors.waterType })} value={v.waterType} onChange={(e) => onChange('waterType', e.target.value as WaterType)}>
              {WATER_TYPES.map((w) => (
                <option key={w} value={w}>
                  {WATER_TYPE_LABELS[w]}
                </option>
              ))}
            </NativeSelect>
          </FormField>
        ) : null}
      </Group>

      {sensor ? (
        <Group title="Nivel y umbrales" columns={3}>
          <FormField id={id('maxLevel')} label="Nivel máximo" hint={HINTS.maxLevel} error={errors.maxLevel}>
            {text('maxLevel', { suffix: 'm', inputMode: 'decimal' })}
          </FormField>
          <FormField id={id('warningPct')} label="Advertencia" hint={HINTS.warningPct} error={errors.warningPct}>
            {text('warningPct', { suffix: '%', inputMode: 'decimal' })}
          </FormField>
          <FormField id={id('criticalPct')} label="Crítico" hint={HINTS.criticalPct} error={errors.criticalPct}>
            {text('criticalPct', { suffix: '%', inputMode: 'decimal' })}
          </FormField>
        </Group>
      ) : null}

      <Group title="Tiempos">
        {!sensor ? (
          <FormField id={id('travelTimeoutS')} label="Tiempo máximo de recorrido" hint={HINTS.travelTimeoutS} error={errors.travelTimeoutS}>
            {text('travelTimeoutS', { suffix: 's', inputMode: 'numeric' })}
          </FormField>
        ) : null}
        <FormField id={id('offlineAfterS')} label="Tiempo sin señal" hint={offlineHint} error={errors.offlineAfterS}>
          {text('offlineAfterS', { suffix: 's', inputMode: 'numeric' })}
        </FormField>
      </Group>
    </div>
  );
}
