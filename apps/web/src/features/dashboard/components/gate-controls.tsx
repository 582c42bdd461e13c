import { useState } from 'react';
import { ArrowDownToLine, ArrowUpFromLine } from 'lucide-react';
import { isCommandInFlight, UI_TEXTS, type Device } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { CommandDialog } from '@/features/interlocks/components/command-dialog';
import { hasPermitNotes, permitNotesId, PermitNotes } from '@/features/interlocks/components/permit-notes';
import { useCommandPermits } from '@/features/interlocks/hooks/use-command-permits';

type GateAction = 'abrir' | 'cerrar';
const ACTIONS: readonly GateAction[] = ['abrir', 'cerrar'];

/**
 * 'Abrir' / 'Cerrar' with a confirmation; disabled while a command is on its way, and a command an
 * interlock blocks is disabled with its reasons written under the buttons.
 */
export function GateControls({ device }: { device: Device }) {
  const [asking, setAsking] = useState<GateAction | null>(null);
  const permits = useCommandPermits(device.id, ACTIONS, true);
  const inFlight = device.lastCommand !== null && isCommandInFlight(device.lastCommand.status);

  return (
    <div className="mt-auto grid gap-2">
      <div className="grid grid-cols-2 gap-2">
        {ACTIONS.map((action) => {
          const permit = permits[action];
          const Icon = action === 'abrir' ? ArrowUpFromLine : ArrowDownToLine;
          return (
            <Button
              key={action}
              variant="outline"
              disabled={inFlight || permit?.blocked}
              aria-describedby={hasPermitNotes(permit) ? permitNotesId(device.id, action) : undefined}
              onClick={() => setAsking(action)}
            >
              <Icon aria-hidden="true" />
              {action === 'abrir' ? 'Abrir' : 'Cerrar'}
            </Button>
          );
        })}
      </div>
      <PermitNotes deviceId={device.id} permits={ACTIONS.map((a) => permits[a])} />
      {asking ? (
        <CommandDialog
          device={device}
          command={asking}
          permit={permits[asking]}
          description={`La orden se enviará al dispositivo ${device.id}. La compuerta puede tardar varios segundos en completar el movimiento.`}
          sentTitle={UI_TEXTS.commandSentTitle}
          deniedText={UI_TEXTS.dashboardCommandDenied}
          onClose={() => setAsking(null)}
        />
      ) : null}
    </div>
  );
}
