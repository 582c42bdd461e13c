import { useRef, useState, type FormEvent } from 'react';
import { AlertDialog } from 'radix-ui';
import { Lock, ShieldAlert, UsersRound } from 'lucide-react';
import { commandLabel, INTERLOCK_LIMITS, UI_TEXTS, type Device } from '@agua/shared';
import { Button, buttonVariants } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { fieldAria, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { gateConfirmation } from '@/components/device/labels';
import type { CommandAccepted } from '@/lib/device-cache';
import { useIssueCommand } from '../api/issue-command';
import type { CommandPermit } from '../hooks/use-command-permits';
import { readRefusal, type Refusal } from '../utils/command-refusal';
import { ReasonList } from './permit-notes';

const APPROVAL_MINUTES = INTERLOCK_LIMITS.approvalTimeoutS / 60;

interface CommandDialogProps {
  device: Device;
  command: string;
  /** What the check said; it keeps changing while the dialog is open. */
  permit: CommandPermit | undefined;
  description: string;
  /** The toast title of a command sent ('Comando Enviado' on the dashboard, 'Comando Ejecutado' on the device panel). */
  sentTitle: string;
  /** The toast words of a 403 there. */
  deniedText: string;
  onClose: () => void;
}

/** The question before a command: a gate's names the act ('Abrir compuerta'); another device's names the command. */
function confirmation(device: Device, command: string): { title: string; confirmLabel: string } {
  if (device.type === 'motorized_gate') return gateConfirmation(command, device.name);
  const verb = commandLabel(command);
  return { title: `¿${verb} el dispositivo ${device.name}?`, confirmLabel: verb };
}

/**
 * A command's confirmation with what its interlocks demand (docs/operator-console.md
 * "Interlocks"): the reasons, a required 'Comentario' for confirm, the user's 'Contraseña' for
 * reauth, a notice that another person must approve for two_person. The server judges again at
 * submit; its refusal stays in the dialog with what was typed, the password excepted. Built on
 * AlertDialog like every command confirmation: a click outside never closes it.
 */
export function CommandDialog({ device, command, permit, description, sentTitle, deniedText, onClose }: CommandDialogProps) {
  const mutation = useIssueCommand();
  const [comment, setComment] = useState('');
  const [password, setPassword] = useState('');
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [missing, setMissing] = useState<{ comment?: string; password?: string }>({});
  // Demands the server revealed that the check had not shown: they stay for this dialog.
  const [learned, setLearned] = useState({ comment: false, password: false });
  const commentRef = useRef<HTMLTextAreaElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const { title, confirmLabel } = confirmation(device, command);
  const needs = {
    comment: (permit?.requires.comment ?? false) || learned.comment,
    password: (permit?.requires.password ?? false) || learned.password,
    approval: permit?.requires.approval ?? false,
  };
  const blocked = permit?.blocked ?? false;
  // The server's reasons when it refused; the check's otherwise.
  const reasons = refusal && refusal.reasons.length > 0 ? refusal.reasons : (permit?.reasons ?? []);
  const commentError = missing.comment ?? (refusal?.field === 'comment' ? refusal.message : undefined);
  const passwordError = missing.password ?? (refusal?.field === 'password' ? refusal.message : undefined);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    send(false);
  }

  /** Sends the command; `takeManual`: the person takes the gate from the schedule it follows. */
  function send(takeManual: boolean) {
    const lacking = {
      ...(needs.comment && !comment.trim() ? { comment: 'Escriba un comentario: queda en la auditoría con el comando.' } : {}),
      ...(needs.password && !password ? { password: 'Escriba su contraseña.' } : {}),
    };
    setMissing(lacking);
    if (lacking.comment) return commentRef.current?.focus();
    if (lacking.password) return passwordRef.current?.focus();
    setRefusal(null);
    mutation.mutate(
      { deviceId: device.id, command, ...(needs.comment ? { comment } : {}), ...(needs.password ? { password } : {}), ...(takeManual ? { takeManual: true } : {}) },
      {
        onSuccess: (accepted: CommandAccepted) => {
          if (accepted.status === 'awaiting_approval') {
            toast({ title: 'En espera de aprobación', description: `${accepted.message}: otra persona debe aprobarlo en ${APPROVAL_MINUTES} min.`, variant: 'success' });
          } else {
            toast({ title: sentTitle, description: accepted.message, variant: 'success' });
          }
          onClose();
        },
        onError: (error) => {
          const r = readRefusal(error);
          if (r.forbidden) {
            toast({ title: UI_TEXTS.accessDeniedTitle, description: deniedText, variant: 'destructive' });
            onClose();
            return;
          }
          setPassword('');
          setRefusal(r);
          setLearned((l) => ({ comment: l.comment || r.demands.comment, password: l.password || r.demands.password }));
          // After React has drawn the field the answer is about.
          requestAnimationFrame(() => (r.field === 'comment' ? commentRef.current : r.field === 'password' ? passwordRef.current : null)?.focus());
        },
      },
    );
  }

  return (
    <AlertDialog.Root open onOpenChange={(open) => (open ? undefined : onClose())}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/50 data-[state=open]:animate-fade-in" />
        <AlertDialog.Content
          data-testid="command-dialog"
          className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl border bg-popover p-6 text-popover-foreground shadow-lg data-[state=open]:animate-zoom-in"
          onOpenAutoFocus={(e) => {
            // With something to type, the first field; otherwise 'Cancelar' (a stray Enter never sends).
            const first = needs.comment ? commentRef.current : needs.password ? passwordRef.current : null;
            if (first) {
              e.preventDefault();
              first.focus();
            }
          }}
        >
          <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-busy={mutation.isPending}>
            <AlertDialog.Title className="text-lg leading-snug font-semibold">{title}</AlertDialog.Title>
            <AlertDialog.Description className="text-sm text-muted-foreground">{description}</AlertDialog.Description>

            {reasons.length > 0 ? (
              <div data-testid="command-dialog-reasons" className={blocked ? 'grid gap-1 rounded-md border border-crit/30 bg-crit/8 px-3 py-2 text-sm text-crit-fg' : 'grid gap-1 rounded-md border border-warn/40 bg-warn/10 px-3 py-2 text-sm text-warn-fg'}>
                <p className="flex items-center gap-1.5 font-semibold">
                  {blocked ? <Lock aria-hidden="true" className="size-4 shrink-0" /> : <ShieldAlert aria-hidden="true" className="size-4 shrink-0" />}
                  {blocked ? 'Bloqueado por un enclavamiento' : 'Enclavamientos que no se cumplen'}
                </p>
                <ReasonList reasons={reasons} />
              </div>
            ) : null}

            {needs.approval && !blocked ? (
              <p role="note" className="flex gap-2 rounded-md border border-primary/25 bg-primary/10 px-3 py-2 text-sm text-foreground">
                <UsersRound aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
                <span>
                  <strong>Requiere la aprobación de otra persona.</strong> El comando quedará en espera y no se enviará hasta que otro usuario con
                  permiso de operación lo apruebe (como mucho {APPROVAL_MINUTES} min).
                </span>
              </p>
            ) : null}

            {needs.comment ? (
              <FormField id="command-comment" label="Comentario" hint="Obligatorio: por qué se da la orden. Queda en la auditoría." error={commentError}>
                <Textarea
                  ref={commentRef}
                  {...fieldAria('command-comment', { hint: true, error: commentError })}
                  required
                  aria-required="true"
                  rows={3}
                  maxLength={INTERLOCK_LIMITS.commentMax}
                  value={comment}
                  onChange={(e) => {
                    setComment(e.target.value);
                    setMissing((m) => ({ ...m, comment: undefined }));
                  }}
                />
              </FormField>
            ) : null}

            {needs.password ? (
              <FormField id="command-password" label="Contraseña" hint="Su propia contraseña de acceso, para confirmar que es usted." error={passwordError}>
                <Input
                  ref={passwordRef}
                  {...fieldAria('command-password', { hint: true, error: passwordError })}
                  type="password"
                  autoComplete="current-password"
                  required
                  aria-required="true"
                  value={password}
                  onChange={(e) => {
                    setPassword(e.target.value);
                    setMissing((m) => ({ ...m, password: undefined }));
                  }}
                />
              </FormField>
            ) : null}

            {blocked && !refusal ? <FormAlert message="No se puede enviar mientras el enclavamiento no se cumpla: corrija la condición o pida a un supervisor que lo anule." /> : null}
            <FormAlert message={refusal && refusal.field === null ? refusal.message : null} />
            {refusal?.scheduleActive ? (
              <p role="note" className="text-sm text-muted-foreground">
                Si toma el control manual, la programación no cerrará la compuerta a esa hora: queda a su cargo.
              </p>
            ) : null}

            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <AlertDialog.Cancel className={buttonVariants({ variant: 'outline' })}>Cancelar</AlertDialog.Cancel>
              {refusal?.scheduleActive ? (
                <Button type="button" data-testid="take-manual" disabled={mutation.isPending || blocked} onClick={() => send(true)}>
                  {mutation.isPending ? <Spinner /> : null}
                  Tomar control manual
                </Button>
              ) : (
                <Button type="submit" disabled={mutation.isPending || blocked}>
                  {mutation.isPending ? <Spinner /> : null}
                  {confirmLabel}
                </Button>
              )}
            </div>
          </form>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
