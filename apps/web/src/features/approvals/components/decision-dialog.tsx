import { useState, type FormEvent } from 'react';
import { AlertDialog } from 'radix-ui';
import { commandLabel, INTERLOCK_LIMITS, type Command } from '@agua/shared';
import { Button, buttonVariants } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { fieldAria, FormField } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { ReasonList } from '@/features/interlocks/components/permit-notes';
import { readRefusal, type Refusal } from '@/features/interlocks/utils/command-refusal';
import { useApproveCommand, useRejectCommand } from '../api/approvals';

export type Decision = 'approve' | 'reject';

interface DecisionDialogProps {
  command: Command;
  decision: Decision;
  deviceName: string;
  onClose: () => void;
}

/**
 * 'Aprobar' or 'Rechazar' a two-person command, with an optional comment. A refusal (the device
 * went offline, an interlock now blocks, another command is in flight) stays in the dialog with
 * its reasons: the command waits on.
 */
export function DecisionDialog({ command, decision, deviceName, onClose }: DecisionDialogProps) {
  const approve = useApproveCommand();
  const reject = useRejectCommand();
  const mutation = decision === 'approve' ? approve : reject;
  const [comment, setComment] = useState('');
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const verb = commandLabel(command.command);
  const issuer = command.issuedBy?.name ?? 'Sistema';

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setRefusal(null);
    mutation.mutate(
      { commandId: command.id, comment },
      {
        onSuccess: () => {
          toast(
            decision === 'approve'
              ? { title: 'Comando aprobado', description: `«${verb}» enviado a ${deviceName}.`, variant: 'success' }
              : { title: 'Comando rechazado', description: `«${verb}» en ${deviceName} no se enviará.`, variant: 'success' },
          );
          onClose();
        },
        onError: (error) => setRefusal(readRefusal(error)),
      },
    );
  }

  const id = `decision-${command.id}`;
  return (
    <AlertDialog.Root open onOpenChange={(open) => (open ? undefined : onClose())}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/50 data-[state=open]:animate-fade-in" />
        <AlertDialog.Content
          data-testid="decision-dialog"
          className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl border bg-popover p-6 text-popover-foreground shadow-lg data-[state=open]:animate-zoom-in"
        >
          <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-busy={mutation.isPending}>
            <AlertDialog.Title className="text-lg leading-snug font-semibold">
              {decision === 'approve' ? `¿Aprobar «${verb}» en ${deviceName}?` : `¿Rechazar «${verb}» en ${deviceName}?`}
            </AlertDialog.Title>
            <AlertDialog.Description className="text-sm text-muted-foreground">
              {decision === 'approve'
                ? `Lo pidió ${issuer}. Al aprobarlo, la orden se envía al dispositivo ${command.deviceId} ahora; el servidor vuelve a comprobar los enclavamientos.`
                : `Lo pidió ${issuer}. Rechazado, no se enviará.`}
            </AlertDialog.Description>
            {command.comment ? <p className="rounded-md border bg-muted px-3 py-2 text-sm break-words">Comentario de {issuer}: {command.comment}</p> : null}
            <FormField id={id} label={decision === 'approve' ? 'Comentario (opcional)' : 'Motivo (opcional)'}>
              <Textarea {...fieldAria(id, {})} rows={2} maxLength={INTERLOCK_LIMITS.commentMax} value={comment} onChange={(e) => setComment(e.target.value)} />
            </FormField>
            {refusal ? (
              <div className="grid gap-2">
                <FormAlert message={refusal.message} />
                {refusal.reasons.length > 0 ? <ReasonList reasons={refusal.reasons} className="rounded-md border border-crit/30 bg-crit/8 px-3 py-2 text-sm text-crit-fg" /> : null}
              </div>
            ) : null}
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <AlertDialog.Cancel className={buttonVariants({ variant: 'outline' })}>Cancelar</AlertDialog.Cancel>
              <Button type="submit" variant={decision === 'approve' ? 'default' : 'destructive'} disabled={mutation.isPending}>
                {mutation.isPending ? <Spinner /> : null}
                {decision === 'approve' ? `Aprobar «${verb}»` : `Rechazar «${verb}»`}
              </Button>
            </div>
          </form>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
