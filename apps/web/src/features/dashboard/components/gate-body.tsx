import type { Device } from '@agua/shared';
import { CommandProgress } from '@/components/device/command-progress';
import { GateStateView } from '@/components/device/gate-state';
import { RelativeTime } from '@/components/device/relative-time';
import { useNow } from '@/hooks/use-now';
import { gateState, isReadingStale } from '@/lib/device-helpers';
import { cn } from '@/lib/utils';
import { GateControls } from './gate-controls';

/** Gate state with an icon, the last command's progress, and 'Abrir'/'Cerrar' for writers. */
export function GateBody({ device, canWrite }: { device: Device; canWrite: boolean }) {
  const now = useNow();
  const online = device.status === 'online';
  const state = gateState(device);
  const stale = !online || isReadingStale(device, now);
  return (
    <div className="flex flex-1 flex-col gap-3">
      <div>
        <p className="text-xs text-muted-foreground">{online ? 'Estado' : 'Último estado conocido'}</p>
        <div data-testid={`reading-${device.id}`} className={cn('mt-1', stale && 'text-muted-foreground')}>
          <GateStateView state={state} size="lg" />
        </div>
        {/* Reserved lines keep live cards from jumping; an offline card does not need them. */}
        {online ? (
          <p className="mt-2 min-h-4 text-xs text-muted-foreground">
            {device.reading ? (
              <>
                Actualizado <RelativeTime value={device.reading.ts} />
              </>
            ) : null}
          </p>
        ) : null}
      </div>
      {online || device.lastCommand ? (
        <div className="min-h-5">{device.lastCommand ? <CommandProgress command={device.lastCommand} /> : null}</div>
      ) : null}
      {canWrite && online ? <GateControls device={device} /> : null}
    </div>
  );
}
