import { CircleCheck, TriangleAlert } from 'lucide-react';
import { cn } from '@/lib/utils';
import type { Verdict } from '../utils/schedule-texts';

/**
 * 'Se ejecutará' or 'Se omitirá: <reason>' — what the next run would meet now. A disabled schedule
 * says nothing here (its state says it); a verdict still being asked shows nothing yet either.
 */
export function ScheduleVerdict({ verdict, className }: { verdict: Verdict; className?: string }) {
  if (verdict.kind === 'off' || verdict.kind === 'unknown') return null;
  if (verdict.kind === 'run') {
    return (
      <p data-testid="schedule-verdict" data-verdict="run" className={cn('flex items-center gap-1.5 text-sm font-medium text-ok-fg', className)}>
        <CircleCheck aria-hidden="true" className="size-4 shrink-0" />
        Se ejecutará
      </p>
    );
  }
  const [first, ...more] = verdict.reasons;
  return (
    <div data-testid="schedule-verdict" data-verdict="skip" className={cn('grid gap-1 rounded-md border border-warn/40 bg-warn/10 px-3 py-2 text-sm text-warn-fg', className)}>
      <p className="flex items-start gap-1.5 font-medium">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span className="min-w-0 break-words">Se omitirá: {first}</span>
      </p>
      {more.length > 0 ? (
        <ul className="grid gap-0.5 pl-5.5 text-xs">
          {more.map((reason) => (
            <li key={reason} className="break-words">
              {reason}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
