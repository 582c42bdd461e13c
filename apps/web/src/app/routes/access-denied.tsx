import { Link } from 'react-router';
import { ShieldX } from 'lucide-react';
import { UI_TEXTS } from '@agua/shared';
import { buttonVariants } from '@/components/ui/button';

export function AccessDenied() {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center py-16 text-center">
      <title>{UI_TEXTS.accessDeniedTitle}</title>
      <span className="inline-flex size-14 items-center justify-center rounded-full bg-muted">
        <ShieldX aria-hidden="true" className="size-7 text-muted-foreground" />
      </span>
      <h1 className="mt-4 text-2xl font-semibold">{UI_TEXTS.accessDeniedTitle}</h1>
      <p className="mt-2 text-muted-foreground">{UI_TEXTS.accessDeniedPage}</p>
      <Link to="/" className={buttonVariants({ variant: 'outline', className: 'mt-6' })}>
        Volver al Dashboard
      </Link>
    </div>
  );
}
