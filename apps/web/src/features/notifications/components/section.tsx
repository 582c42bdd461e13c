import type { ReactNode } from 'react';

/** A section's heading: h2 under the page's h1, with the look of a card title. */
export function SectionTitle({ id, children }: { id: string; children: ReactNode }) {
  return (
    <h2 id={id} className="text-base leading-tight font-semibold tracking-tight">
      {children}
    </h2>
  );
}
