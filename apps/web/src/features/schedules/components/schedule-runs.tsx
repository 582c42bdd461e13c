import { commandLabel, type Schedule, type ScheduleRun } from '@agua/shared';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { LoadError } from '@/components/load-error';
import { useNow } from '@/hooks/use-now';
import { cn } from '@/lib/utils';
import type { useScheduleRuns } from '../api/schedules';
import { plannedCloseText, RUN_TONES, runStatusLabel, TRIGGER_LABELS } from '../utils/schedule-texts';
import { formatZonedWhen } from '../utils/zoned-time';

type RunsQuery = ReturnType<typeof useScheduleRuns>;

function RunRow({ run, timeZone, now }: { run: ScheduleRun; timeZone: string; now: number }) {
  const closing = run.status === 'pending' && run.trigger === 'duration';
  const warn = run.status === 'skipped' || run.status === 'missed';
  return (
    <li data-testid={`schedule-run-${run.id}`} data-status={run.status} className={cn('grid gap-1 px-3 py-2 text-sm', warn && 'bg-warn/8')}>
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
        <span className="font-medium tabular-nums">
          {formatZonedWhen(run.plannedAt, timeZone, now)} · {commandLabel(run.action)}
        </span>
        <Badge tone={RUN_TONES[run.status]}>{runStatusLabel(run.status)}</Badge>
      </div>
      <p className="text-xs text-muted-foreground">
        {TRIGGER_LABELS[run.trigger]}
        {run.commandId ? (
          <>
            {' · comando '}
            <span className="font-mono break-all">{run.commandId}</span>
          </>
        ) : null}
      </p>
      {closing ? <p className="text-xs font-medium text-primary">{plannedCloseText(run, timeZone, now)}</p> : null}
      {run.reason ? <p className={cn('text-xs break-words', warn ? 'font-medium text-warn-fg' : 'text-muted-foreground')}>{run.reason.message}</p> : null}
    </li>
  );
}

/**
 * A schedule's runs, newest planned first: when, what set it off, how it ended and why, and the
 * command it issued (which the device's 'Últimos comandos' list shows too). Kept live by
 * `schedule.run` frames; 'Ver más' brings older ones.
 */
export function ScheduleRuns({ schedule, runs }: { schedule: Schedule; runs: RunsQuery }) {
  const now = useNow();
  if (runs.isError && !runs.data) return <LoadError message={runs.error.message} onRetry={() => void runs.refetch()} />;
  if (!runs.data) {
    return (
      <div className="grid gap-2" aria-hidden="true">
        <Skeleton className="h-12" />
        <Skeleton className="h-12" />
      </div>
    );
  }
  const items = runs.data.pages.flatMap((p) => p.items);
  if (items.length === 0) return <p className="text-sm text-muted-foreground">Aún no se ha ejecutado.</p>;
  return (
    <div className="grid gap-2">
      <ol className="divide-y overflow-hidden rounded-lg border" data-testid={`schedule-runs-${schedule.id}`}>
        {items.map((run) => (
          <RunRow key={run.id} run={run} timeZone={schedule.timezone} now={now} />
        ))}
      </ol>
      {runs.isFetchNextPageError ? <LoadError message={runs.error?.message ?? ''} onRetry={() => void runs.fetchNextPage()} /> : null}
      {runs.hasNextPage ? (
        <Button variant="outline" size="sm" className="justify-self-start" onClick={() => void runs.fetchNextPage()} disabled={runs.isFetchingNextPage}>
          {runs.isFetchingNextPage ? <Spinner /> : null}
          Ver más
        </Button>
      ) : null}
    </div>
  );
}
