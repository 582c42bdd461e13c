import { useState, type FormEvent } from 'react';
import { Play } from 'lucide-react';
import { periodLabel, REPORT_KIND_LABELS, REPORT_LIMITS, type Report } from '@agua/shared';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { focusFirstError, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { useRunReport } from '../api/report-runs';
import { localDay } from '@/lib/day-range';
import { defaultPeriod } from '../utils/report-texts';
import { validatePeriod } from '../utils/validate-report';

const ID = 'generate-report';
const PERIOD_HINT = `Ambos días incluidos, en hora local; hasta ${REPORT_LIMITS.periodDaysMax} días.`;

/** Both date fields share one hint; each has its own error. */
function dateAria(field: 'from' | 'to', error: string | undefined) {
  const id = `${ID}-${field}`;
  return { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${ID}-hint ${id}-error` : `${ID}-hint` } as const;
}

/**
 * 'Generar ahora': a run of one definition for a period, prefilled with the last complete one
 * (yesterday, last week, last month). Mounted per definition, so its fields start from its kind.
 */
export function GenerateReportDialog({ report, onClose }: { report: Report; onClose: () => void }) {
  const [period, setPeriod] = useState(() => defaultPeriod(report.kind));
  const [send, setSend] = useState(false);
  const [errors, setErrors] = useState<{ from?: string; to?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const run = useRunReport();
  const noRecipients = report.recipients.length === 0;
  const today = localDay();

  const set = (key: 'from' | 'to') => (e: { target: { value: string } }) => {
    setPeriod((p) => ({ ...p, [key]: e.target.value }));
    setErrors((x) => (x[key] ? { ...x, [key]: undefined } : x));
  };

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setFormError(null);
    const checked = validatePeriod(period.from, period.to, today);
    if ('errors' in checked) {
      setErrors(checked.errors);
      return focusFirstError(ID, ['from', 'to'], checked.errors);
    }
    setErrors({});
    run.mutate(
      { reportId: report.id, request: { ...checked.period, send: send && !noRecipients } },
      {
        onSuccess: () => {
          toast({ title: 'Informe en preparación', description: `${report.name} · ${periodLabel(checked.period)}`, variant: 'success' });
          onClose();
        },
        // The server's own words (a period it refuses, a definition deleted meanwhile).
        onError: (err) => setFormError(err.message),
      },
    );
  }

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent data-testid="generate-report-dialog" className="max-h-[calc(100dvh-2rem)] overflow-y-auto">
        {/* minmax(0, 1fr): the date fields' own minimum width must not push the form past a phone's edge. */}
        <form onSubmit={onSubmit} noValidate className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-4" aria-busy={run.isPending}>
          <DialogHeader>
            <DialogTitle>Generar informe</DialogTitle>
            <DialogDescription>
              {report.name} · {REPORT_KIND_LABELS[report.kind]}
            </DialogDescription>
          </DialogHeader>
          <div className="grid min-w-0 gap-4 sm:grid-cols-2">
            <FormField id={`${ID}-from`} label="Desde" error={errors.from}>
              <Input type="date" {...dateAria('from', errors.from)} value={period.from} max={period.to && period.to < today ? period.to : today} onChange={set('from')} />
            </FormField>
            <FormField id={`${ID}-to`} label="Hasta" error={errors.to}>
              <Input type="date" {...dateAria('to', errors.to)} value={period.to} min={period.from || undefined} onChange={set('to')} />
            </FormField>
            <p id={`${ID}-hint`} className="text-xs text-muted-foreground sm:col-span-2">
              {PERIOD_HINT}
            </p>
          </div>
          <label className="flex min-h-11 cursor-pointer items-start gap-3 text-sm has-disabled:cursor-not-allowed has-disabled:opacity-60">
            <input type="checkbox" className="mt-0.5 size-4 shrink-0 accent-primary" checked={send && !noRecipients} disabled={noRecipients} onChange={(e) => setSend(e.target.checked)} />
            <span className="grid gap-0.5">
              <span className="font-medium">Enviar a los destinatarios</span>
              <span className="text-xs text-muted-foreground">{noRecipients ? 'Este informe no tiene destinatarios.' : 'Por correo, cuando esté listo.'}</span>
            </span>
          </label>
          <FormDialogFooter error={formError} pending={run.isPending} onCancel={onClose} icon={<Play aria-hidden="true" />} label="Generar" pendingLabel="Generando..." />
        </form>
      </DialogContent>
    </Dialog>
  );
}
