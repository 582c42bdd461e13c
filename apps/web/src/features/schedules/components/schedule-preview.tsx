import { commandLabel, type Device, type Schedule } from '@agua/shared';
import { Badge } from '@/components/ui/badge';
import { Skeleton } from '@/components/ui/skeleton';
import { LoadError } from '@/components/load-error';
import { useNow } from '@/hooks/use-now';
import { useSchedulePreview } from '../api/schedules';
import { scheduleVerdict } from '../utils/schedule-texts';
import { atThe, formatZonedClock, formatZonedWhen } from '../utils/zoned-time';
import { ScheduleVerdict } from './schedule-verdict';

/**
 * 'Próximas ejecuciones' of a saved schedule (GET /schedules/{id}/preview): its next 10 runs, each
 * with its close-after, and the verdict they would meet now.
 */
export function SchedulePreviewList({ schedule, device }: { schedule: Schedule; device: Device | undefined }) {
  const preview = useSchedulePreview(schedule.id);
  const now = useNow();
  if (preview.isError && !preview.data) return <LoadError message={preview.error.message} onRetry={() => void preview.refetch()} />;
  if (!preview.data) {
    return (
      <div className="grid gap-2" aria-hidden="true">
        <Skeleton className="h-9" />
        <Skeleton className="h-9" />
        <Skeleton className="h-9" />
      </div>
    );
  }
  const { items, timezone } = preview.data;
  // The preview judges a disabled schedule as if it were enabled.
  const verdict = scheduleVerdict({ enabled: true }, preview.data, device);
  const skips = verdict.kind === 'skip';
  return (
    <div className="grid gap-3" data-testid="schedule-preview">
      {!schedule.enabled ? <p className="text-xs text-muted-foreground">Desactivada: así se ejecutaría al activarla.</p> : null}
      <ScheduleVerdict verdict={verdict} />
      {items.length === 0 ? (
        <p className="text-sm text-muted-foreground">No hay ejecuciones próximas.</p>
      ) : (
        <ol className="divide-y rounded-lg border text-sm">
          {items.map((item) => (
            <li key={item.at} data-testid="schedule-preview-item" className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 px-3 py-2">
              <span className="grid min-w-0 gap-0.5">
                <span className="font-medium tabular-nums">
                  {formatZonedWhen(item.at, timezone, now)} · {commandLabel(item.action)}
                </span>
                {item.closeAt ? <span className="text-xs text-muted-foreground tabular-nums">Cierra {atThe(formatZonedClock(item.closeAt, timezone, Date.parse(item.at)))}</span> : null}
              </span>
              <Badge tone={skips ? 'warn' : 'ok'}>{skips ? 'Se omitirá' : 'Se ejecutará'}</Badge>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
