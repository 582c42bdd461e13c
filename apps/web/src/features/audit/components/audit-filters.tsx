import { useId } from 'react';
import { X } from 'lucide-react';
import type { Device, User } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import type { AuditFilterValues } from '../hooks/use-audit-filters';
import { localDay } from '@/lib/day-range';
import { AUDIT_ACTION_GROUPS } from '../utils/audit-labels';

const DAY_PRESETS = [
  { label: 'Hoy', offset: 0 },
  { label: 'Ayer', offset: -1 },
] as const;

interface AuditFiltersProps {
  values: AuditFilterValues;
  onChange: (key: keyof AuditFilterValues, value: string) => void;
  /** A whole-day preset ('Hoy', 'Ayer'): both days at once. */
  onDays: (from: string, to: string) => void;
  onClear: () => void;
  active: boolean;
  users: User[];
  devices: Device[];
  error: string | null;
}

/** User, device, action and day range; each change applies at once (and lands in the URL). */
export function AuditFilters({ values, onChange, onDays, onClear, active, users, devices, error }: AuditFiltersProps) {
  const id = useId();
  const field = (key: keyof AuditFilterValues) => ({ id: `${id}-${key}`, value: values[key], onChange: (e: { target: { value: string } }) => onChange(key, e.target.value) });
  // A value from the URL that is not (or no longer) in the list still shows, rather than vanishing.
  const unknownUser = values.userId && !users.some((u) => u.id === values.userId);
  const unknownDevice = values.deviceId && !devices.some((d) => d.id === values.deviceId);

  return (
    <section aria-label="Filtros" className="grid gap-3 rounded-xl border bg-card p-4 @2xl:grid-cols-2 @5xl:grid-cols-[repeat(3,minmax(0,1fr))_minmax(0,0.8fr)_minmax(0,0.8fr)_auto] @5xl:items-end">
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-userId`}>Usuario</Label>
        <NativeSelect {...field('userId')}>
          <option value="">Todos los usuarios</option>
          {unknownUser ? <option value={values.userId}>{values.userId}</option> : null}
          {users.map((u) => (
            <option key={u.id} value={u.id}>
              {u.name} (@{u.username})
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-deviceId`}>Dispositivo</Label>
        <NativeSelect {...field('deviceId')}>
          <option value="">Todos los dispositivos</option>
          {unknownDevice ? <option value={values.deviceId}>{values.deviceId}</option> : null}
          {devices.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-action`}>Acción</Label>
        <NativeSelect {...field('action')}>
          <option value="">Todas las acciones</option>
          {AUDIT_ACTION_GROUPS.map((g) => (
            <optgroup key={g.label} label={g.label}>
              {Object.entries(g.actions).map(([action, label]) => (
                <option key={action} value={action}>
                  {label}
                </option>
              ))}
            </optgroup>
          ))}
        </NativeSelect>
      </div>
      <div className="grid grid-cols-2 gap-3 @2xl:col-span-2 @5xl:col-span-2">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-from`}>Desde</Label>
          <Input type="date" max={values.to || undefined} {...field('from')} aria-invalid={error ? true : undefined} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-to`}>Hasta</Label>
          <Input type="date" min={values.from || undefined} {...field('to')} aria-invalid={error ? true : undefined} />
        </div>
      </div>
      <div className="flex flex-wrap gap-2 @2xl:col-span-2 @5xl:col-span-6">
        {DAY_PRESETS.map(({ label, offset }) => {
          const day = localDay(offset);
          const selected = values.from === day && values.to === day;
          return (
            <Button key={label} size="sm" variant={selected ? 'default' : 'outline'} aria-pressed={selected} onClick={() => onDays(day, day)}>
              {label}
            </Button>
          );
        })}
      </div>
      <Button variant="ghost" onClick={onClear} disabled={!active} className="@2xl:justify-self-start @5xl:justify-self-end">
        <X aria-hidden="true" />
        Limpiar filtros
      </Button>
      {error ? (
        <p role="alert" className="text-sm font-medium text-crit-fg @2xl:col-span-2 @5xl:col-span-6">
          {error}
        </p>
      ) : null}
    </section>
  );
}
