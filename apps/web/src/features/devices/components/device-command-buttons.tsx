import { useState } from 'react';
import { ArrowDownToLine, ArrowUpFromLine, type LucideIcon, OctagonX, RefreshCw, RotateCcw } from 'lucide-react';
import { commandLabel, DEVICE_COMMANDS, isCommandInFlight, UI_TEXTS, type CommandName, type Device } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/use-toast';
import { gateConfirmation } from '@/components/device/labels';
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
 * server lets it supersede one.
 */
export function DeviceCommandButtons({ device, canWrite }: { device: Device; canWrite: boolean }) {
  const mutation = useSendDeviceCommand();
  const [asking, setAsking] = useState<CommandName | null>(null);
  const busy = mutation.isPending || (device.lastCommand !== null && isCommandInFlight(device.lastCommand.status));
  const commands = DEVICE_COMMANDS[device.type] as readonly CommandName[];
  const isGate = device.type === 'motorized_gate';

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

  return (
    <div className={isGate ? 'grid grid-cols-3 gap-2' : 'grid grid-cols-2 gap-2'}>
      {commands.map((command) => {
        const Icon = ICONS[command];
        const disabled = !canWrite || (command === 'detener' ? mutation.isPending : busy);
        return (
          <Button
            key={command}
            variant={command === 'detener' ? 'secondary' : 'outline'}
            disabled={disabled}
            onClick={() => (isGate ? setAsking(command) : send(command))}
            className="px-2"
          >
            <Icon aria-hidden="true" />
            {commandLabel(command)}
          </Button>
        );
      })}
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => {
          if (!open) setAsking(null);
        }}
        {...(asking ? gateConfirmation(asking, device.name) : { title: '' })}
        description={`La orden se enviará al dispositivo ${device.id}.`}
        onConfirm={() => {
          if (asking) send(asking);
          setAsking(null);
        }}
      />
    </div>
  );
}
