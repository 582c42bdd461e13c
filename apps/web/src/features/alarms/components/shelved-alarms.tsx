import { Bell } from 'lucide-react';
import type { Alarm } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { useNow } from '@/hooks/use-now';
import { formatDateTime } from '@/lib/format';
import { shelvingLeft } from '../utils/shelved-alarms';
import { PriorityBadge } from './alarm-badges';
import { AlarmWhat } from './alarm-what';

/**
 * 'Suspendidas': the shelved alarms, below the active ones — until when, who shelved them and why,
 * and 'Reactivar' (write). Readable at full contrast: quiet by place and outline, not by fading.
 */
export function ShelvedAlarms({
  alarms,
  deviceName,
  canWrite,
  onUnshelve,
}: {
  alarms: Alarm[];
  deviceName: (id: string) => string;
  canWrite: boolean;
  onUnshelve: (alarm: Alarm) => void;
}) {
  const now = useNow();
  if (alarms.length === 0) return null;
  return (
    <section aria-labelledby="shelved-alarms-title" className="grid gap-2">
      <h2 id="shelved-alarms-title" className="text-base font-semibold">
        Suspendidas ({alarms.length})
      </h2>
      <p className="text-sm text-muted-foreground">No suenan ni se notifican hasta que vence su suspensión; si su condición sigue activa, vuelven sin reconocer.</p>
      <ul className="grid gap-2" data-testid="shelved-alarms">
        {alarms.map((a) => (
          <li
            key={a.id}
            data-testid={`alarm-${a.id}`}
            data-state={a.state}
            className="grid gap-2 rounded-lg border border-dashed bg-card p-3 sm:grid-cols-[15.5rem_minmax(0,1fr)_auto] sm:items-center"
          >
            <div className="flex items-center gap-2">
              <PriorityBadge priority={a.priority} />
            </div>
            <div className="min-w-0">
              <AlarmWhat alarm={a} deviceName={deviceName} />
              {a.shelvedUntil ? (
                <p className="text-sm">
                  Hasta <time dateTime={a.shelvedUntil}>{formatDateTime(a.shelvedUntil)}</time> ({shelvingLeft(a.shelvedUntil, now)})
                  {a.shelvedBy ? ` · por ${a.shelvedBy.name}` : ''}
                </p>
              ) : null}
              {a.shelveComment ? <p className="text-sm text-muted-foreground break-words">{a.shelveComment}</p> : null}
            </div>
            {canWrite ? (
              <div className="flex flex-wrap gap-2 sm:justify-end">
                <Button size="sm" variant="outline" onClick={() => onUnshelve(a)}>
                  <Bell aria-hidden="true" />
                  Reactivar
                </Button>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
