import type { ReactNode } from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';

export interface CheckItem {
  id: string;
  name: string;
  detail?: string;
}

interface CheckListProps {
  /** Names the list for screen readers (the fieldset around it has the visible legend). */
  label: string;
  items: CheckItem[];
  checked: readonly string[];
  onToggle: (id: string) => void;
  loading?: boolean;
  loadError?: ReactNode;
  empty: string;
  describedBy?: string;
}

/** A scrolling list of checkboxes: the devices or the users a report is for. */
export function CheckList({ label, items, checked, onToggle, loading, loadError, empty, describedBy }: CheckListProps) {
  if (loadError) return <>{loadError}</>;
  if (loading) return <Skeleton className="h-24" />;
  if (items.length === 0) return <p className="rounded-lg border border-dashed p-4 text-center text-sm text-muted-foreground">{empty}</p>;
  return (
    <ul aria-label={label} className="grid max-h-56 gap-0.5 overflow-y-auto rounded-lg border p-1">
      {items.map((item) => {
        const on = checked.includes(item.id);
        return (
          <li key={item.id}>
            <label className={cn('flex min-h-11 cursor-pointer items-center gap-3 rounded-md px-2 py-1.5 hover:bg-accent', !on && 'text-muted-foreground')}>
              <input type="checkbox" className="size-4 shrink-0 accent-primary" checked={on} onChange={() => onToggle(item.id)} aria-describedby={describedBy} />
              <span className="min-w-0 flex-1">
                <span className={cn('block text-sm leading-tight font-medium break-words', on && 'text-foreground')}>{item.name}</span>
                {item.detail ? <span className="block truncate text-xs text-muted-foreground">{item.detail}</span> : null}
              </span>
            </label>
          </li>
        );
      })}
    </ul>
  );
}
