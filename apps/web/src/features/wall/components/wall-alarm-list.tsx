import { useState } from 'react';
import type { Alarm } from '@agua/shared';
import { RelativeTime } from '@/components/device/relative-time';
import { toast } from '@/components/ui/use-toast';
import { useAckAlarm } from '@/features/alarms/api/alarms-api';
import { AckDialog } from '@/features/alarms/components/alarm-action-dialogs';
import { AlarmStateBadge, PriorityBadge } from '@/features/alarms/components/alarm-badges';
import { AlarmWhat } from '@/features/alarms/components/alarm-what';
import { useShortcut } from '@/features/shortcuts/hooks/use-shortcut';
import { cn } from '@/lib/utils';

/** What the wall lists: alarms that are active or wait for an acknowledgement (shelved ones are out of sight on purpose). */
const SHOWN = new Set<Alarm['state']>(['unack', 'rtn_unack', 'ack']);

/**
 * The wall's alarm list, most urgent first. ↑/↓ (or a click) select an alarm; 'r' opens its
 * acknowledgement — a dialog, so that a stray key never acknowledges anything by itself.
 */
export function WallAlarmList({ alarms, deviceName, canWrite }: { alarms: Alarm[]; deviceName: (id: string) => string; canWrite: boolean }) {
  const shown = alarms.filter((a) => SHOWN.has(a.state));
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [acking, setAcking] = useState<Alarm | null>(null);
  const ack = useAckAlarm();
  const index = Math.max(0, shown.findIndex((a) => a.id === selectedId));
  const selected = shown[index] ?? null;

  useShortcut('ArrowDown', () => shown.length > 0 && setSelectedId(shown[Math.min(index + 1, shown.length - 1)]!.id));
  useShortcut('ArrowUp', () => shown.length > 0 && setSelectedId(shown[Math.max(index - 1, 0)]!.id));
  useShortcut(
    'r',
    () => {
      if (selected && (selected.state === 'unack' || selected.state === 'rtn_unack')) setAcking(selected);
      else toast({ title: 'Nada que reconocer', description: 'La alarma seleccionada no espera reconocimiento.' });
    },
    canWrite,
  );

  return (
    <section aria-labelledby="wall-alarms-title" className="flex min-h-0 flex-col gap-3">
      <h2 id="wall-alarms-title" className="text-lg font-semibold">
        Alarmas {shown.length > 0 ? `(${shown.length})` : ''}
      </h2>
      {shown.length === 0 ? (
        <p className="rounded-lg border border-dashed p-6 text-center text-muted-foreground">No hay alarmas activas.</p>
      ) : (
        <ul className="grid gap-2 overflow-y-auto p-1 xl:max-h-[calc(100dvh-9rem)]" data-testid="wall-alarms" role="listbox" aria-label="Alarmas activas o sin reconocer">
          {shown.map((a) => (
            <li
              key={a.id}
              role="option"
              aria-selected={a.id === selected?.id}
              data-state={a.state}
              onClick={() => setSelectedId(a.id)}
              className={cn(
                'grid cursor-pointer gap-1 rounded-lg border bg-card p-3',
                a.state === 'unack' && 'border-2 border-foreground/70',
                a.state === 'rtn_unack' && 'border-2 border-dashed',
                a.id === selected?.id && 'ring-4 ring-primary/60',
              )}
            >
              <div className="flex flex-wrap items-center gap-2">
                <PriorityBadge priority={a.priority} />
                <AlarmStateBadge state={a.state} />
                <span className="text-xs text-muted-foreground">
                  <RelativeTime value={a.raisedAt} />
                </span>
              </div>
              <AlarmWhat alarm={a} deviceName={deviceName} />
            </li>
          ))}
        </ul>
      )}
      {canWrite && shown.length > 0 ? <p className="text-xs text-muted-foreground">↑ ↓ eligen una alarma · R la reconoce · ? muestra los atajos</p> : null}
      <AckDialog
        open={acking !== null}
        title="Reconocer alarma"
        description={acking ? `${deviceName(acking.deviceId)}: ${acking.message}` : ''}
        onOpenChange={(open) => !open && setAcking(null)}
        onConfirm={async (comment) => {
          if (acking) await ack.mutateAsync({ id: acking.id, comment });
        }}
      />
    </section>
  );
}
