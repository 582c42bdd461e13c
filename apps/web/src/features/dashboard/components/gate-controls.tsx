import { useState } from 'react';
import { ArrowDownToLine, ArrowUpFromLine } from 'lucide-react';
import { isCommandInFlight, UI_TEXTS, type Device } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/use-toast';
import { gateConfirmation } from '@/components/device/labels';
import { isApiError } from '@/lib/api-client';

import { useSendGateCommand, type GateCommandInput } from '../api/send-gate-command';

type GateAction = GateCommandInput['command'];

/** 'Abrir' / 'Cerrar' with a confirmation; disabled while a command is on its way. */
export function GateControls({ device }: { device: Device }) {
  const [asking, setAsking] = useState<GateAction | null>(null);
  const mutation = useSendGateCommand();
  const inFlight = mutation.isPending || (device.lastCommand !== null && isCommandInFlight(device.lastCommand.status));

  function send(command: GateAction) {
    mutation.mutate(
      { deviceId: device.id, command },
      {
        onSuccess: (accepted) => toast({ title: UI_TEXTS.commandSentTitle, description: accepted.message, variant: 'success' }),
        onError: (error) => {
          if (isApiError(error) && error.status === 403) {
            toast({ title: UI_TEXTS.accessDeniedTitle, description: UI_TEXTS.dashboardCommandDenied, variant: 'destructive' });
          } else {
            toast({ title: 'Error al enviar el comando', description: error.message, variant: 'destructive' });
          }
        },
      },
    );
  }

  return (
    <div className="mt-auto grid grid-cols-2 gap-2">
      <Button variant="outline" disabled={inFlight} onClick={() => setAsking('abrir')}>
        <ArrowUpFromLine aria-hidden="true" />
        Abrir
      </Button>
      <Button variant="outline" disabled={inFlight} onClick={() => setAsking('cerrar')}>
        <ArrowDownToLine aria-hidden="true" />
        Cerrar
      </Button>
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => {
          if (!open) setAsking(null);
        }}
        {...(asking ? gateConfirmation(asking, device.name) : { title: '' })}
        description={`La orden se enviará al dispositivo ${device.id}. La compuerta puede tardar varios segundos en completar el movimiento.`}
        onConfirm={() => {
          if (asking) send(asking);
          setAsking(null);
        }}
      />
    </div>
  );
}
