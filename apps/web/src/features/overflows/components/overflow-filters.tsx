import { X } from 'lucide-react';
import type { Device } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { localDay } from '@/lib/day-range';
import type { OverflowFilterValues } from '../hooks/use-overflow-filters';

interface OverflowFiltersProps {
  values: OverflowFilterValues;
  onChange: (changes: Partial<OverflowFilterValues>) => void;
  onClear: () => void;
  active: boolean;
  /** The level sensors: only they spill. */
  sensors: Device[];
  error: string | null;
}

/** Whole-period presets: both days at once. */
function presets(now = new Date()) {
  return [
    { label: 'Últimos 30 días', from: localDay(-29, now), to: localDay(0, now) },
    { label: 'Este año', from: `${now.getFullYear()}-01-01`, to: `${now.getFullYear()}-12-31` },
  ];
}

/** Device and period (days of the user's calendar); each change applies at once and lands in the URL. */
export function OverflowFilters({ values, onChange, onClear, active, sensors, error }: OverflowFiltersProps) {
  const field = (key: keyof OverflowFilterValues) => ({
    id: `overflow-filter-${key}`,
    value: values[key],
    onChange: (e: { target: { value: string } }) => onChange({ [key]: e.target.value }),
  });
  // A device from the URL that is not (or no longer) a sensor here still shows, rather than vanishing.
  const unknownDevice = values.deviceId && !sensors.some((d) => d.id === values.deviceId);

  return (
    <section aria-label="Filtros" className="grid gap-3 rounded-xl border bg-card p-4 @2xl:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)_minmax(0,1fr)] @2xl:items-end">
      <FormField id="overflow-filter-deviceId" label="Dispositivo">
        <NativeSelect {...field('deviceId')}>
          <option value="">Todos los sensores de nivel</option>
          {unknownDevice ? <option value={values.deviceId}>{values.deviceId}</option> : null}
          {sensors.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <FormField id="overflow-filter-from" label="Desde">
        <Input type="date" max={values.to || undefined} aria-invalid={error ? true : undefined} {...field('from')} />
      </FormField>
      <FormField id="overflow-filter-to" label="Hasta">
        <Input type="date" min={values.from || undefined} aria-invalid={error ? true : undefined} {...field('to')} />
      </FormField>
      <div className="flex flex-wrap items-center gap-2 @2xl:col-span-3">
        {presets().map(({ label, from, to }) => {
          const selected = values.from === from && values.to === to;
          return (
            <Button key={label} size="sm" variant={selected ? 'default' : 'outline'} aria-pressed={selected} onClick={() => onChange({ from, to })}>
              {label}
            </Button>
          );
        })}
        <Button variant="ghost" onClick={onClear} disabled={!active} className="ml-auto">
          <X aria-hidden="true" />
          Limpiar filtros
        </Button>
      </div>
      {error ? (
        <p role="alert" className="text-sm font-medium text-crit-fg @2xl:col-span-3">
          {error}
        </p>
      ) : null}
    </section>
  );
}
