import { useState } from 'react';
import { ArrowDownToLine, ArrowUpFromLine, type LucideIcon, OctagonX, RefreshCw, RotateCcw } from 'lucide-react';
import { commandLabel, DEVICE_COMMANDS, isCommandInFlight, UI_TEXTS, type CommandName, type Device } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { CommandDialog } from '@/features/interlocks/components/command-dialog';
import { hasPermitNotes, permitNotesId, PermitNotes } from '@/features/interlocks/components/permit-notes';
import { useCommandPermits } from '@/features/interlocks/hooks/use-command-permits';
import { isApiError } from '@/lib/api-client';

import { useSendDeviceCommand } from '../api/send-device-command';

const ICONS: Record<CommandName, LucideIcon> = {
  abrir: ArrowUpFromLine,
  cerrar: ArrowDownToLine,
  detener: OctagonX,
  read: RefreshCw,
  restart: RotateCcw,
};

/**
 * The commands of an online device. Shown to everyone, disabled without write (seed). Gate
 * commands ask first; 'Detener' stays available while another command is in flight because the
 * server lets it supersede one, and no interlock ever blocks it. A command an interlock blocks is
 * disabled with its reasons written under the buttons; one with demands (a comment, the password,
 * a second person) asks for them in its confirmation.
 */
export function DeviceCommandButtons({ device, canWrite }: { device: Device; canWrite: boolean }) {
  const mutation = useSendDeviceCommand();
  const [asking, setAsking] = useState<CommandName | null>(null);
  const busy = mutation.isPending || (device.lastCommand !== null && isCommandInFlight(device.lastCommand.status));
  const commands = DEVICE_COMMANDS[device.type] as readonly CommandName[];
  const isGate = device.type === 'motorized_gate';
  const permits = useCommandPermits(device.id, commands, true);

  function send(command: CommandName) {
    mutation.mutate(
      { deviceId: device.id, command },
      {
        onSuccess: (accepted) => toast({ title: UI_TEXTS.commandExecutedTitle, description: accepted.message, variant: 'success' }),
        onError: (error) => {
          if (isApiError(error) && error.status === 403) {
            toast({ title: UI_TEXTS.accessDeniedTitle, description: UI_TEXTS.devicesCommandDenied, variant: 'destructive' });
          } else {
            toast({ title: 'Error al ejecutar el comando', description: error.message, variant: 'destructive' });
          }
        },
      },
    );
  }

  /** A sensor's command goes at once, unless an interlock asks something of it. */
  const asks = (command: CommandName) => {
    const r = permits[command]?.requires;
    return isGate || (r !== undefined && (r.comment || r.password || r.approval));
  };

  return (
    <div className="grid gap-3">
      <div className={isGate ? 'grid grid-cols-3 gap-2' : 'grid grid-cols-2 gap-2'}>
        {commands.map((command) => {
          const Icon = ICONS[command];
          const permit = permits[command];
          const disabled = !canWrite || (command === 'detener' ? mutation.isPending : busy || permit?.blocked);
          return (
            <Button
              key={command}
              variant={command === 'detener' ? 'secondary' : 'outline'}
              disabled={disabled}
              aria-describedby={hasPermitNotes(permit) ? permitNotesId(device.id, command) : undefined}
              onClick={() => (asks(command) ? setAsking(command) : send(command))}
              className="px-2"
            >
              <Icon aria-hidden="true" />
              {commandLabel(command)}
            </Button>
          );
        })}
      </div>
      <PermitNotes deviceId={device.id} permits={commands.map((c) => permits[c])} />
      {asking ? (
        <CommandDialog
          device={device}
          command={asking}
          permit={permits[asking]}
          description={`La orden se enviará al dispositivo ${device.id}.`}
          sentTitle={UI_TEXTS.commandExecutedTitle}
          deniedText={UI_TEXTS.devicesCommandDenied}
          onClose={() => setAsking(null)}
        />
      ) : null}
    </div>
  );
}
