import { cn } from '@/lib/utils';

/** A checkbox that looks and is announced as a switch ('Activo'); its label is the one around it. */
export function Switch({ checked, onChange }: { checked: boolean; onChange: (on: boolean) => void }) {
  return (
    <span className="relative inline-flex shrink-0">
      <input type="checkbox" role="switch" className="peer absolute inset-0 z-10 cursor-pointer opacity-0" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span
        aria-hidden="true"
        className="inline-flex h-6 w-11 items-center rounded-full border-2 border-transparent bg-input transition-colors peer-checked:bg-primary peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-ring"
      >
        <span className={cn('size-5 rounded-full bg-background shadow-sm transition-transform', checked ? 'translate-x-5' : 'translate-x-0')} />
      </span>
    </span>
  );
}
