import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { TriangleAlert } from 'lucide-react';
import { UI_TEXTS } from '@agua/shared';
import { buttonVariants } from '@/components/ui/button';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The seed's fallback for any routing or rendering failure: 'Unexpected Application Error!'. */
export function RouteError() {
  const error = useRouteError();
  return (
    <div role="alert" className="mx-auto flex min-h-[60dvh] max-w-xl flex-col items-center justify-center px-4 py-16 text-center">
      <span className="inline-flex size-14 items-center justify-center rounded-full bg-muted">
        <TriangleAlert aria-hidden="true" className="size-7 text-muted-foreground" />
      </span>
      <h1 className="mt-4 text-2xl font-semibold">{UI_TEXTS.routingErrorTitle}</h1>
      <p className="mt-2 font-mono text-sm break-words text-muted-foreground">{describe(error)}</p>
      <div className="mt-6 flex gap-2">
        <Link to="/" className={buttonVariants({ variant: 'outline' })}>
          Ir al inicio
        </Link>
        <button type="button" onClick={() => window.location.reload()} className={buttonVariants({ variant: 'ghost' })}>
          Recargar
        </button>
      </div>
    </div>
  );
}
