import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';
import { FieldMessages } from './form-field';

/** A group of controls under one legend, with its hint and inline error (`<id>-hint`, `<id>-error`); focusable for an error. */
export function Fieldset({ id, legend, error, hint, children, className }: { id: string; legend: string; error?: string; hint?: ReactNode; children: ReactNode; className?: string }) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <fieldset id={id} tabIndex={-1} aria-describedby={describedBy} className={cn('grid min-w-0 content-start gap-2 outline-none', className)}>
      <legend className="mb-2 text-sm font-medium">{legend}</legend>
      {children}
      <FieldMessages id={id} hint={hint} error={error} />
    </fieldset>
  );
}

/** A radio button drawn as a 44 px tall choice. */
export function Choice({ name, checked, onChange, children, className }: { name: string; checked: boolean; onChange: () => void; children: ReactNode; className?: string }) {
  return (
    <label className={cn('flex min-h-11 cursor-pointer items-center gap-2 rounded-md border px-3 text-sm has-checked:border-primary/50 has-checked:bg-primary/8', className)}>
      <input type="radio" name={name} className="size-4 shrink-0 accent-primary" checked={checked} onChange={onChange} />
      {children}
    </label>
  );
}

/** A checkbox drawn as a 44 px tall choice. */
export function Check({ checked, onChange, children, className }: { checked: boolean; onChange: (on: boolean) => void; children: ReactNode; className?: string }) {
  return (
    <label className={cn('flex min-h-11 cursor-pointer items-center gap-2 rounded-md border px-3 text-sm has-checked:border-primary/50 has-checked:bg-primary/8', className)}>
      <input type="checkbox" className="size-4 shrink-0 accent-primary" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {children}
    </label>
  );
}
