import { useEffect, useState, type FormEvent } from 'react';
import { Save } from 'lucide-react';
import { OVERFLOW_TEXT_LIMITS, type OverflowEvent } from '@agua/shared';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { fieldAria, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { formatDateTime } from '@/lib/format';
import { annotateOverflow } from '../api/overflows-api';

/** A count with the thousands point Spanish prints from 1.000 on ('2.000'). */
const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '.');

/** An ISO time as a `datetime-local` value in the browser's zone ('2026-11-28T14:05'). */
function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** 'Anotar': the cause, the notes and when the regulator was told (never in the future). */
export function OverflowEditDialog({ event, deviceName, onClose }: { event: OverflowEvent | null; deviceName: string; onClose: () => void }) {
  const [cause, setCause] = useState('');
  const [notes, setNotes] = useState('');
  const [notifiedAt, setNotifiedAt] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notifiedError, setNotifiedError] = useState<string | null>(null);

  useEffect(() => {
    setCause(event?.cause ?? '');
    setNotes(event?.notes ?? '');
    setNotifiedAt(toLocalInput(event?.notifiedAt ?? null));
    setError(null);
    setNotifiedError(null);
  }, [event]);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!event) return;
    const notifiedMs = notifiedAt ? new Date(notifiedAt).getTime() : null;
    if (notifiedMs !== null && (Number.isNaN(notifiedMs) || notifiedMs > Date.now())) {
      setNotifiedError('La fecha de aviso a la autoridad no puede ser futura.');
      return;
    }
    setNotifiedError(null);
    setPending(true);
    setError(null);
    try {
      await annotateOverflow(event.id, { cause: cause.trim() || null, notes: notes.trim() || null, notifiedAt: notifiedMs === null ? null : new Date(notifiedMs).toISOString() });
      onClose();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog open={event !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent data-testid="overflow-edit-dialog" className="max-w-lg">
        <form onSubmit={(e) => void onSubmit(e)} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Anotar desbordamiento</DialogTitle>
            <DialogDescription>
              {deviceName} · desde {formatDateTime(event?.startedAt)}
            </DialogDescription>
          </DialogHeader>
          <FormField id="overflow-cause" label="Causa" hint={`Hasta ${OVERFLOW_TEXT_LIMITS.cause} caracteres.`}>
            <Input {...fieldAria('overflow-cause', { hint: true })} value={cause} maxLength={OVERFLOW_TEXT_LIMITS.cause} onChange={(e) => setCause(e.target.value)} placeholder="Lluvia intensa, obstrucción, fallo de bomba…" />
          </FormField>
          <FormField id="overflow-notified" label="Comunicado a la autoridad" hint="Fecha y hora del aviso; vacío si aún no se avisó." error={notifiedError}>
            <Input
              type="datetime-local"
              {...fieldAria('overflow-notified', { hint: true, error: notifiedError })}
              value={notifiedAt}
              max={toLocalInput(new Date().toISOString())}
              onChange={(e) => setNotifiedAt(e.target.value)}
            />
          </FormField>
          <FormField id="overflow-notes" label="Notas" hint={`Hasta ${thousands(OVERFLOW_TEXT_LIMITS.notes)} caracteres.`}>
            <textarea
              {...fieldAria('overflow-notes', { hint: true })}
              className="min-h-24 w-full rounded-md border border-input bg-card px-3 py-2 text-base shadow-xs transition-colors focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/40 sm:text-sm"
              value={notes}
              maxLength={OVERFLOW_TEXT_LIMITS.notes}
              onChange={(e) => setNotes(e.target.value)}
            />
          </FormField>
          <FormDialogFooter error={error} pending={pending} onCancel={onClose} icon={<Save aria-hidden="true" />} label="Guardar" pendingLabel="Guardando..." />
        </form>
      </DialogContent>
    </Dialog>
  );
}
