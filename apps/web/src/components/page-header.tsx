import type { ReactNode } from 'react';
import { PRODUCT_NAME } from '@agua/shared';

/** A screen's title block; also sets the document title (React 19 hoists <title>). */
export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <title>{title === PRODUCT_NAME ? PRODUCT_NAME : `${title} · ${PRODUCT_NAME}`}</title>
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold tracking-tight text-balance sm:text-3xl">{title}</h1>
        {description ? <p className="mt-1 text-sm text-muted-foreground sm:text-base">{description}</p> : null}
      </div>
      {actions ? <div className="flex shrink-0 flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}
