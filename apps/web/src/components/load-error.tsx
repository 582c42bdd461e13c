import { CircleAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';

/** A failed load with a retry, inside the screen (the route error page is for crashes). */
export function LoadError({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div role="alert" className="flex flex-col gap-3 rounded-lg border border-crit/30 bg-crit/8 p-4 sm:flex-row sm:items-center sm:justify-between">
      <p className="flex items-start gap-2 text-sm">
        <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-crit-fg" />
        <span>
          <span className="font-semibold">No se pudieron cargar los datos.</span> <span className="text-muted-foreground">{message}</span>
        </span>
      </p>
      {onRetry ? (
        <Button variant="outline" size="sm" onClick={onRetry}>
          Reintentar
        </Button>
      ) : null}
    </div>
  );
}
