import type { ReactNode } from 'react';
import { CircleAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';

/** A section's heading: h2 under the page's h1, with the look of a card title. */
export function SectionTitle({ id, children }: { id: string; children: ReactNode }) {
  return (
    <h2 id={id} className="text-base leading-tight font-semibold tracking-tight">
      {children}
    </h2>
  );
}

/** A section whose data did not load, with a retry; the other sections keep working. */
export function SectionError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div role="alert" className="flex flex-col gap-3 rounded-lg border border-crit/30 bg-crit/8 p-4 sm:flex-row sm:items-center sm:justify-between">
      <p className="flex items-start gap-2 text-sm">
        <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-crit-fg" />
        <span>
          <span className="font-semibold">No se pudieron cargar los datos.</span> <span className="text-muted-foreground">{message}</span>
        </span>
      </p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        Reintentar
      </Button>
    </div>
  );
}
