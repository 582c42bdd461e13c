import { LoaderCircle } from 'lucide-react';
import { cn } from '@/lib/utils';

export function Spinner({ className }: { className?: string }) {
  return <LoaderCircle aria-hidden="true" className={cn('size-4 animate-spin motion-reduce:animate-none', className)} />;
}

/** Whole-page wait state: the seed shows 'Cargando...' while the session is restored. */
export function FullPageSpinner({ label = 'Cargando...' }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" className="flex min-h-dvh flex-col items-center justify-center gap-3 text-muted-foreground">
      <Spinner className="size-8 text-primary" />
      <span className="text-sm font-medium">{label}</span>
    </div>
  );
}
