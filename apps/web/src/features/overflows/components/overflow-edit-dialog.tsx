import { useState, type FormEvent } from 'react';
import { Clock, Save } from 'lucide-react';
import { OVERFLOW_TEXT_LIMITS, type OverflowEvent, type OverflowEventPatch } from '@agua/shared';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { fieldAria, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { isApiError } from '@/lib/api-client';
import { formatDateTime, formatInteger } from '@/lib/format';
import { useUpdateOverflowEvent } from '../api/update-overflow-event';
import { parseNotifiedAt, toLocalInput } from '../utils/notified-at';

interface Values {
  cause: string;
  notes: string;
  notifiedAt: string;
}

const valuesOf = (event: OverflowEvent): Values => ({ cause: event.cause ?? '', notes: event.notes ?? '', notifiedAt: toLocalInput(event.notifiedAt) });
const orNull = (text: string) => text.trim() || null;

/**
 * Only what the person changed: the time field holds minutes, so sending it untouched would cut
 * the seconds off a stored time.
 */
function changesOf(initial: Values, values: Values, notifiedAt: string | null): OverflowEventPatch {
  return {
    ...(values.cause !== initial.cause ? { cause: orNull(values.cause) } : {}),
    ...(values.notes !== initial.notes ? { notes: orNull(values.notes) } : {}),
    ...(values.notifiedAt !== initial.notifiedAt ? { notifiedAt } : {}),
  };
}

/**
 * 'Editar desbordamiento': the cause, the notes and when the authority was told (not in the
 * future). Mounted per event (keyed by its id), so its fields start from that event.
 */
export function OverflowEditDialog({ event, deviceName, onClose }: { event: OverflowEvent; deviceName: string; onClose: () => void }) {
  const initial = valuesOf(event);
  const [values, setValues] = useState<Values>(initial);
  const [timeError, setTimeError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const update = useUpdateOverflowEvent();
  const set = (key: keyof Values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value }));

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setFormError(null);
    const parsed = parseNotifiedAt(values.notifiedAt, Date.now());
    if ('error' in parsed) {
      setTimeError(parsed.error);
      document.getElementById('overflow-notifiedAt')?.focus();
      return;
    }
    setTimeError(null);
    const patch = changesOf(initial, values, parsed.notifiedAt);
    if (Object.keys(patch).length === 0) return onClose();
    update.mutate(
      { id: event.id, patch },
      {
        onSuccess: () => {
          toast({ title: 'Desbordamiento actualizado', description: deviceName });
          onClose();
        },
        onError: (err) => {
          // The server's Spanish text, beside the field it is about when it names one.
          if (isApiError(err) && err.code === 'NOTIFIED_AT_IN_FUTURE') {
            setTimeError(err.message);
            document.getElementById('overflow-notifiedAt')?.focus();
          } else setFormError(err.message);
        },
      },
    );
  }

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent data-testid="overflow-edit-dialog" className="max-h-[calc(100dvh-2rem)] max-w-lg overflow-y-auto">
        {/* minmax(0, 1fr): the date-time field's own minimum width must not push the form past a phone's edge. */}
        <form onSubmit={onSubmit} className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>Editar desbordamiento</DialogTitle>
            <DialogDescription>
              {deviceName} · desde {formatDateTime(event.startedAt)}
              {event.endedAt ? ` hasta ${formatDateTime(event.endedAt)}` : ' (en curso)'}
            </DialogDescription>
          </DialogHeader>
          <FormField id="overflow-cause" label="Causa" hint={`Hasta ${OVERFLOW_TEXT_LIMITS.cause} caracteres.`}>
            <Input {...fieldAria('overflow-cause', { hint: true })} value={values.cause} maxLength={OVERFLOW_TEXT_LIMITS.cause} onChange={set('cause')} placeholder="Lluvia intensa, bomba averiada…" />
          </FormField>
          <FormField id="overflow-notes" label="Notas" hint={`Hasta ${formatInteger(OVERFLOW_TEXT_LIMITS.notes)} caracteres.`}>
            <Textarea {...fieldAria('overflow-notes', { hint: true })} value={values.notes} maxLength={OVERFLOW_TEXT_LIMITS.notes} onChange={set('notes')} rows={4} />
          </FormField>
          <FormField id="overflow-notifiedAt" label="Comunicado a la autoridad" hint="Fecha y hora del aviso; vacío si aún no se ha comunicado." error={timeError}>
            <div className="flex min-w-0 gap-2">
              <Input
                type="datetime-local"
                className="min-w-0 flex-1"
                {...fieldAria('overflow-notifiedAt', { hint: true, error: timeError })}
                value={values.notifiedAt}
                max={toLocalInput(new Date())}
                onChange={set('notifiedAt')}
              />
              <Button type="button" variant="outline" onClick={() => setValues((v) => ({ ...v, notifiedAt: toLocalInput(new Date()) }))}>
                <Clock aria-hidden="true" />
                Ahora
              </Button>
            </div>
          </FormField>
          <FormDialogFooter error={formError} pending={update.isPending} onCancel={onClose} icon={<Save aria-hidden="true" />} label="Guardar" pendingLabel="Guardando..." />
        </form>
      </DialogContent>
    </Dialog>
  );
}
