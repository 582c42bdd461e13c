import { useState } from 'react';
import { BellOff, CheckCheck } from 'lucide-react';
import { CRITICAL_ALARM_PRIORITY, errorMessage, type Alarm } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { RelativeTime } from '@/components/device/relative-time';
import { toast } from '@/components/ui/use-toast';
import { formatDateTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useAckAlarm, useAckAlarms, useShelveAlarm, useUnshelveAlarm } from '../api/alarms-api';
import { summarizeAlarms } from '../utils/alarm-summary';
import { splitShelved } from '../utils/shelved-alarms';
import { AckDialog, ShelveDialog } from './alarm-action-dialogs';
import { AlarmStateBadge, PriorityBadge } from './alarm-badges';
import { AlarmWhat } from './alarm-what';
import { ShelvedAlarms } from './shelved-alarms';

type Pending = { kind: 'ack'; alarm: Alarm } | { kind: 'ackAll' } | { kind: 'shelve'; alarm: Alarm } | null;

const failed = (err: unknown) => toast({ title: 'No se pudo completar', description: err instanceof Error ? err.message : String(err), variant: 'destructive' });

/** Says what 'Reconocer todas' did: some may have moved on (cleared, shelved) meanwhile. */
function announceAckAll({ acked, skipped }: { acked: string[]; skipped: string[] }) {
  toast({
    title: acked.length === 1 ? '1 alarma reconocida' : `${acked.length} alarmas reconocidas`,
    description: skipped.length > 0 ? `${skipped.length} ya no esperaban reconocimiento.` : undefined,
    variant: 'success',
  });
}

/** Why 'Suspender' is disabled for a Crítica alarm (ALARM_SHELVE_CRITICAL=admin): the server's own words. */
const SHELVE_CRITICAL_NOTE_ID = 'shelve-critical-note';

/**
 * The open alarms: the active ones, one row each, with 'Reconocer', 'Reconocer todas' and
 * 'Suspender' (write; `mayShelve` says for which priorities), and below them 'Suspendidas'.
 */
export function OpenAlarms({
  alarms,
  deviceName,
  canWrite,
  mayShelve,
}: {
  alarms: Alarm[];
  deviceName: (id: string) => string;
  canWrite: boolean;
  mayShelve: (priority: number) => boolean;
}) {
  const [pending, setPending] = useState<Pending>(null);
  const ack = useAckAlarm();
  const ackAll = useAckAlarms();
  const shelve = useShelveAlarm();
  const unshelve = useUnshelveAlarm();
  const { active, shelved } = splitShelved(alarms);
  const { waiting } = summarizeAlarms(active);
  const waitingIds = active.filter((a) => a.state === 'unack' || a.state === 'rtn_unack').map((a) => a.id);
  const criticalLocked = canWrite && !mayShelve(CRITICAL_ALARM_PRIORITY) && active.some((a) => a.priority === CRITICAL_ALARM_PRIORITY);

  return (
    <div className="grid gap-3">
      {canWrite && waiting > 0 ? (
        <Button variant="outline" className="justify-self-end" onClick={() => setPending({ kind: 'ackAll' })}>
          <CheckCheck aria-hidden="true" />
          Reconocer todas ({waiting})
        </Button>
      ) : null}
      {criticalLocked ? (
        <p id={SHELVE_CRITICAL_NOTE_ID} className="text-sm text-muted-foreground">
          {errorMessage('SHELVE_CRITICAL_FORBIDDEN')} Las demás se pueden suspender.
        </p>
      ) : null}
      {active.length === 0 ? <p className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">No hay alarmas activas.</p> : null}
      <ul className="grid gap-2 empty:hidden" data-testid="open-alarms">
        {active.map((a) => (
          <li
            key={a.id}
            data-testid={`alarm-${a.id}`}
            data-state={a.state}
            className={cn(
              'grid gap-2 rounded-lg border bg-card p-3 sm:grid-cols-[15.5rem_minmax(0,1fr)_auto] sm:items-center',
              a.state === 'unack' && 'border-2 border-foreground/70',
              a.state === 'rtn_unack' && 'border-2 border-dashed',
            )}
          >
            <div className="flex items-center gap-2">
              <PriorityBadge priority={a.priority} />
              <AlarmStateBadge state={a.state} />
            </div>
            <div className="min-w-0">
              <AlarmWhat alarm={a} deviceName={deviceName} />
              <p className="text-xs text-muted-foreground">
                Desde <RelativeTime value={a.raisedAt} /> ({formatDateTime(a.raisedAt)})
                {a.ackedBy ? ` · reconocida por ${a.ackedBy.name}` : ''}
              </p>
            </div>
            {canWrite ? (
              <div className="flex flex-wrap gap-2 sm:justify-end">
                {a.state === 'unack' || a.state === 'rtn_unack' ? (
                  <Button size="sm" onClick={() => setPending({ kind: 'ack', alarm: a })}>
                    <CheckCheck aria-hidden="true" />
                    Reconocer
                  </Button>
                ) : null}
                {mayShelve(a.priority) ? (
                  <Button size="sm" variant="outline" onClick={() => setPending({ kind: 'shelve', alarm: a })}>
                    <BellOff aria-hidden="true" />
                    Suspender
                  </Button>
                ) : (
                  <Button size="sm" variant="outline" disabled aria-describedby={SHELVE_CRITICAL_NOTE_ID}>
                    <BellOff aria-hidden="true" />
                    Suspender
                  </Button>
                )}
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      <ShelvedAlarms alarms={shelved} deviceName={deviceName} canWrite={canWrite} onUnshelve={(a) => void unshelve.mutateAsync(a.id).catch(failed)} />
      <AckDialog
        open={pending?.kind === 'ack' || pending?.kind === 'ackAll'}
        title={pending?.kind === 'ackAll' ? 'Reconocer todas' : 'Reconocer alarma'}
        description={pending?.kind === 'ack' ? `${deviceName(pending.alarm.deviceId)}: ${pending.alarm.message}` : `Se reconocerán ${waiting} alarmas pendientes.`}
        onOpenChange={(open) => !open && setPending(null)}
        onConfirm={async (comment) => {
          if (pending?.kind === 'ack') await ack.mutateAsync({ id: pending.alarm.id, comment });
          else announceAckAll(await ackAll.mutateAsync({ ids: waitingIds, comment }));
        }}
      />
      <ShelveDialog
        open={pending?.kind === 'shelve'}
        description={pending?.kind === 'shelve' ? `${deviceName(pending.alarm.deviceId)}: ${pending.alarm.message}` : ''}
        deviceName={pending?.kind === 'shelve' ? deviceName(pending.alarm.deviceId) : ''}
        critical={pending?.kind === 'shelve' && pending.alarm.priority === CRITICAL_ALARM_PRIORITY}
        onOpenChange={(open) => !open && setPending(null)}
        onConfirm={async (minutes, comment) => {
          if (pending?.kind === 'shelve') await shelve.mutateAsync({ id: pending.alarm.id, minutes, comment });
        }}
      />
    </div>
  );
}
