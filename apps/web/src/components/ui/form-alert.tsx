import { CircleAlert } from 'lucide-react';

/** A failure that belongs to no single form field, shown inside the form (where the eyes are). */
export function FormAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="flex gap-2 rounded-md border border-crit/30 bg-crit/10 p-3 text-sm font-medium text-crit-fg">
      <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      {message}
    </p>
  );
}
