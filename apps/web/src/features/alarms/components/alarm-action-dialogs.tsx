import { useState, type FormEvent } from 'react';
import { ArrowLeft, BellOff, CheckCheck, OctagonAlert } from 'lucide-react';
import { ALARM_COMMENT_MAX_LENGTH, ALARM_PRIORITY_LABELS, CRITICAL_ALARM_PRIORITY, SHELVE_MINUTES } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormAlert } from '@/components/ui/form-alert';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { fieldAria, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';

/** 'Reconocer' (one alarm or all): an optional comment. */
export function AckDialog({
  open,
  title,
  description,
  onOpenChange,
  onConfirm,
}: {
  open: boolean;
  title: string;
  description: string;
  onOpenChange: (open: boolean) => void;
  onConfirm: (comment: string | null) => Promise<void>;
}) {
  const [comment, setComment] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The dialog serves every row: what was typed for one alarm must not stay for the next.
  const close = () => {
    setComment('');
    setError(null);
    onOpenChange(false);
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      await onConfirm(comment.trim() || null);
      close();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent data-testid="ack-dialog" className="max-w-md">
        <form onSubmit={(e) => void onSubmit(e)} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          <FormField id="ack-comment" label="Comentario (opcional)">
            <Input id="ack-comment" value={comment} maxLength={ALARM_COMMENT_MAX_LENGTH} onChange={(e) => setComment(e.target.value)} placeholder="Qué se vio o se hizo" />
          </FormField>
          <FormDialogFooter error={error} pending={pending} onCancel={close} icon={<CheckCheck aria-hidden="true" />} label="Reconocer" pendingLabel="Reconociendo..." />
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** What shelving a Crítica alarm costs, said before it is done: the device, the minutes, the silence. */
export function criticalShelveWarning(deviceName: string, minutes: number): string {
  const span = minutes === 1 ? '1 minuto' : `${minutes} minutos`;
  return (
    `Suspender una alarma ${ALARM_PRIORITY_LABELS[CRITICAL_ALARM_PRIORITY]} de ${deviceName} durante ${span}: mientras esté suspendida ` +
    'no sonará ni se notificará aunque la condición siga activa. ¿Suspenderla de todos modos?'
  );
}

/**
 * 'Suspender': for 1–720 minutes, with the reason (required). A Crítica alarm (`critical`) asks a
 * second time, naming what is lost, before it is shelved.
 */
export function ShelveDialog({
  open,
  description,
  deviceName,
  critical,
  onOpenChange,
  onConfirm,
}: {
  open: boolean;
  /** Which alarm: its device and message. */
  description: string;
  deviceName: string;
  critical: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: (minutes: number, comment: string) => Promise<void>;
}) {
  const [minutes, setMinutes] = useState('60');
  const [comment, setComment] = useState('');
  const [errors, setErrors] = useState<{ minutes?: string; comment?: string }>({});
  const [pending, setPending] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  /** The minutes of a Crítica alarm's shelving that waits for its second confirmation. */
  const [confirming, setConfirming] = useState<number | null>(null);
  const close = () => {
    setMinutes('60');
    setComment('');
    setErrors({});
    setFormError(null);
    setConfirming(null);
    onOpenChange(false);
  };

  async function shelve(n: number) {
    setPending(true);
    setFormError(null);
    try {
      await onConfirm(n, comment.trim());
      close();
    } catch (err) {
      setFormError(err instanceof Error ? err.message : String(err));
    } finally {
      setPending(false);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (confirming !== null) return void shelve(confirming);
    const n = Number(minutes);
    const found = {
      ...(!Number.isInteger(n) || n < SHELVE_MINUTES.min || n > SHELVE_MINUTES.max ? { minutes: `Entre ${SHELVE_MINUTES.min} y ${SHELVE_MINUTES.max} minutos.` } : {}),
      ...(comment.trim() === '' ? { comment: 'Indique el motivo de la suspensión.' } : {}),
    };
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (critical) setConfirming(n);
    else void shelve(n);
  }

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent data-testid="shelve-dialog" className="max-w-lg">
        <form onSubmit={onSubmit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>{confirming === null ? 'Suspender alarma' : `¿Suspender una alarma ${ALARM_PRIORITY_LABELS[CRITICAL_ALARM_PRIORITY]}?`}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          {confirming === null ? (
            <>
              <p className="text-sm text-muted-foreground">Queda oculta hasta que venza la suspensión; si su condición sigue activa, volverá sin reconocer.</p>
              <FormField id="shelve-minutes" label="Minutos" hint={`Entre ${SHELVE_MINUTES.min} y ${SHELVE_MINUTES.max} (hasta ${SHELVE_MINUTES.max / 60} h).`} error={errors.minutes}>
                <Input {...fieldAria('shelve-minutes', { hint: true, error: errors.minutes })} type="number" inputMode="numeric" min={SHELVE_MINUTES.min} max={SHELVE_MINUTES.max} value={minutes} onChange={(e) => setMinutes(e.target.value)} />
              </FormField>
              <FormField id="shelve-comment" label="Motivo" error={errors.comment}>
                <Input {...fieldAria('shelve-comment', { error: errors.comment })} value={comment} maxLength={ALARM_COMMENT_MAX_LENGTH} onChange={(e) => setComment(e.target.value)} placeholder="p. ej. Mantenimiento del sensor" />
              </FormField>
              <FormDialogFooter error={formError} pending={pending} onCancel={close} icon={<BellOff aria-hidden="true" />} label="Suspender" pendingLabel="Suspendiendo..." />
            </>
          ) : (
            <>
              <p role="alert" className="flex gap-2 rounded-md border-2 border-crit/50 bg-crit/10 p-3 text-sm font-medium text-foreground">
                <OctagonAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-crit-fg" />
                {criticalShelveWarning(deviceName, confirming)}
              </p>
              <FormAlert message={formError} />
              <DialogFooter className="sm:flex-wrap">
                <Button type="button" variant="outline" onClick={close}>
                  Cancelar
                </Button>
                {/* Focus lands on the way back, not on the silencing. */}
                <Button type="button" variant="outline" autoFocus onClick={() => setConfirming(null)}>
                  <ArrowLeft aria-hidden="true" />
                  Volver
                </Button>
                <Button type="submit" variant="destructive" disabled={pending}>
                  {pending ? <Spinner /> : <BellOff aria-hidden="true" />}
                  {pending ? 'Suspendiendo...' : 'Suspender de todos modos'}
                </Button>
              </DialogFooter>
            </>
          )}
        </form>
      </DialogContent>
    </Dialog>
  );
}
