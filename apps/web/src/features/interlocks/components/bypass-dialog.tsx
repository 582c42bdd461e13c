import { useState, type FormEvent } from 'react';
import { ShieldOff } from 'lucide-react';
import { commandLabel, INTERLOCK_LIMITS, type Interlock } from '@agua/shared';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { fieldAria, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { useInstallationTimeZone } from '@/features/auth/api/get-config';
import { useNow } from '@/hooks/use-now';
import { isApiError } from '@/lib/api-client';
import { formatClockIn } from '@/lib/format';
import { useBypassInterlock } from '../api/interlocks';

const { bypassMinutesMin: MIN, bypassMinutesMax: MAX, commentMax } = INTERLOCK_LIMITS;
const MINUTES_TEXT = `Entre ${MIN} y ${MAX} minutos (${MAX / 60} h).`;

interface BypassDialogProps {
  interlock: Interlock;
  deviceName: string;
  onClose: () => void;
}

/**
 * 'Anular': the interlock stops counting for 1–720 minutes, with the reason why; it ends by itself
 * (or with 'Terminar anulación'). Every screen shows a banner meanwhile.
 */
export function BypassDialog({ interlock, deviceName, onClose }: BypassDialogProps) {
  const bypass = useBypassInterlock();
  const now = useNow();
  const timeZone = useInstallationTimeZone();
  const [minutes, setMinutes] = useState('60');
  const [comment, setComment] = useState('');
  const [errors, setErrors] = useState<{ minutes?: string; comment?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const n = /^\d+$/.test(minutes.trim()) ? Number(minutes.trim()) : null;
  const valid = n !== null && n >= MIN && n <= MAX;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const next = {
      ...(valid ? {} : { minutes: MINUTES_TEXT }),
      ...(comment.trim() ? {} : { comment: 'Escriba por qué se anula: queda en la auditoría y en el aviso de todas las pantallas.' }),
    };
    setErrors(next);
    if (next.minutes || next.comment) return document.getElementById(next.minutes ? 'bypass-minutes' : 'bypass-comment')?.focus();
    bypass.mutate(
      { id: interlock.id, minutes: n!, comment },
      {
        onSuccess: (saved) => {
          toast({ title: 'Enclavamiento anulado', description: `«${saved.name}» hasta las ${formatClockIn(saved.bypass?.until ?? Date.now(), timeZone)}.`, variant: 'success' });
          onClose();
        },
        onError: (error) => {
          const field = isApiError(error) && error.code === 'INVALID_VALUE' ? (error.details as { field?: unknown } | undefined)?.field : undefined;
          if (field === 'minutes') setErrors({ minutes: MINUTES_TEXT });
          else if (field === 'comment') setErrors({ comment: `Un comentario de 1 a ${commentMax} caracteres.` });
          else setFormError(error.message);
        },
      },
    );
  }

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent data-testid="bypass-dialog" className="max-h-[calc(100dvh-2rem)] overflow-y-auto" onInteractOutside={(e) => e.preventDefault()}>
        <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-busy={bypass.isPending}>
          <DialogHeader>
            <DialogTitle>Anular «{interlock.name}»</DialogTitle>
            <DialogDescription>
              {deviceName} · {commandLabel(interlock.command)}. Mientras dure la anulación, el comando se envía aunque las condiciones no se cumplan; todas las pantallas
              muestran un aviso.
            </DialogDescription>
          </DialogHeader>
          <FormField id="bypass-minutes" label="Minutos" hint={valid ? `${MINUTES_TEXT} Terminará a las ${formatClockIn(now + n! * 60_000, timeZone, now)}.` : MINUTES_TEXT} error={errors.minutes}>
            <Input
              {...fieldAria('bypass-minutes', { hint: true, error: errors.minutes })}
              type="number"
              inputMode="numeric"
              min={MIN}
              max={MAX}
              step={1}
              className="tabular-nums sm:max-w-40"
              value={minutes}
              onChange={(e) => {
                setMinutes(e.target.value);
                setErrors((x) => ({ ...x, minutes: undefined }));
              }}
            />
          </FormField>
          <FormField id="bypass-comment" label="Comentario" hint="Obligatorio: por qué se anula." error={errors.comment}>
            <Textarea
              {...fieldAria('bypass-comment', { hint: true, error: errors.comment })}
              required
              aria-required="true"
              rows={3}
              maxLength={commentMax}
              value={comment}
              onChange={(e) => {
                setComment(e.target.value);
                setErrors((x) => ({ ...x, comment: undefined }));
              }}
            />
          </FormField>
          <FormDialogFooter error={formError} pending={bypass.isPending} onCancel={onClose} icon={<ShieldOff aria-hidden="true" />} label="Anular enclavamiento" pendingLabel="Anulando..." />
        </form>
      </DialogContent>
    </Dialog>
  );
}
