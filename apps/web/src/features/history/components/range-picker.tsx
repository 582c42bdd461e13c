import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { fromLocalInputValue, RANGE_PRESETS, resolveRange, toLocalInputValue, type TrendRange } from '../utils/time-range';

interface RangePickerProps {
  value: TrendRange;
  onChange: (range: TrendRange) => void;
}

/** '1 h' · '24 h' · '7 d' · '30 d' · 'Personalizado' (two datetime-local fields, applied together). */
export function RangePicker({ value, onChange }: RangePickerProps) {
  const id = useId();
  const [customOpen, setCustomOpen] = useState(value.kind === 'custom');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [error, setError] = useState<string | null>(null);

  function openCustom() {
    // Start from what is on screen, so the user only adjusts it.
    const { fromMs, toMs } = resolveRange(value, Date.now());
    setFrom(toLocalInputValue(fromMs));
    setTo(toLocalInputValue(toMs));
    setError(null);
    setCustomOpen(true);
  }

  function apply(event: FormEvent) {
    event.preventDefault();
    const fromMs = fromLocalInputValue(from);
    const toMs = fromLocalInputValue(to);
    if (Number.isNaN(fromMs) || Number.isNaN(toMs)) return setError('Indique fecha y hora de inicio y de fin.');
    if (fromMs >= toMs) return setError('La fecha de inicio debe ser anterior a la de fin.');
    setError(null);
    onChange({ kind: 'custom', fromMs, toMs });
  }

  const customActive = customOpen || value.kind === 'custom';
  return (
    // A container: the panel is narrow even on a wide screen, so the layout follows its own width.
    <div className="@container grid gap-3">
      <div role="group" aria-label="Rango de tiempo" className="flex flex-wrap gap-1.5">
        {RANGE_PRESETS.map((p) => {
          const active = !customOpen && value.kind === 'preset' && value.preset === p.id;
          return (
            <Button
              key={p.id}
              variant={active ? 'default' : 'outline'}
              aria-pressed={active}
              className="min-w-11 grow px-3 tabular-nums sm:grow-0"
              onClick={() => {
                setCustomOpen(false);
                onChange({ kind: 'preset', preset: p.id });
              }}
            >
              {p.label}
            </Button>
          );
        })}
        <Button variant={customActive ? 'default' : 'outline'} aria-pressed={customActive} aria-expanded={customOpen} className="grow px-3 sm:grow-0" onClick={openCustom}>
          Personalizado
        </Button>
      </div>
      {customOpen ? (
        <form onSubmit={apply} noValidate className="grid gap-3 rounded-lg border bg-muted/40 p-3 @sm:grid-cols-2 @2xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] @2xl:items-end">
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-from`}>Desde</Label>
            <Input id={`${id}-from`} type="datetime-local" value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} required />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-to`}>Hasta</Label>
            <Input id={`${id}-to`} type="datetime-local" value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} required />
          </div>
          <Button type="submit" className="@sm:col-span-2 @2xl:col-span-1">
            Aplicar
          </Button>
          {error ? (
            <p role="alert" className="text-sm font-medium text-crit-fg @sm:col-span-2 @2xl:col-span-3">
              {error}
            </p>
          ) : null}
        </form>
      ) : null}
    </div>
  );
}
