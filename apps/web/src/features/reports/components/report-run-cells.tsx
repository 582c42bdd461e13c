import { useState } from 'react';
import { CircleCheck, CircleX, Download } from 'lucide-react';
import { periodLabel, REPORT_KIND_LABELS, REPORT_RUN_STATUS_LABELS, type ReportFile, type ReportRun } from '@agua/shared';
import { Badge, type BadgeProps } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { formatDateTime } from '@/lib/format';
import { downloadReportFile } from '../api/report-runs';
import { FORMAT_LABELS, fileSizeText, shortHash } from '../utils/report-texts';

const STATUS_TONES: Record<ReportRun['status'], BadgeProps['tone']> = { queued: 'neutral', running: 'primary', done: 'ok', failed: 'crit' };

/** 'En cola' / 'Generando' with a spinner, 'Listo', 'Fallido': always a word, never the colour alone. */
export function RunStatus({ run }: { run: ReportRun }) {
  const pending = run.status === 'queued' || run.status === 'running';
  return (
    <Badge tone={STATUS_TONES[run.status]} data-testid="report-run-status" data-status={run.status}>
      {pending ? <Spinner className="size-3.5" /> : run.status === 'done' ? <CircleCheck aria-hidden="true" /> : <CircleX aria-hidden="true" />}
      {REPORT_RUN_STATUS_LABELS[run.status]}
    </Badge>
  );
}

export function RunReport({ run }: { run: ReportRun }) {
  return (
    <span className="grid min-w-0">
      <span className="font-medium break-words">{run.reportName}</span>
      <span className="text-xs text-muted-foreground">{REPORT_KIND_LABELS[run.kind]}</span>
    </span>
  );
}

export function RunPeriod({ run }: { run: ReportRun }) {
  return <span className="tabular-nums">{periodLabel(run)}</span>;
}

/** Who asked for it ('Programado' for the schedule), and whether it goes to the recipients. */
export function RunRequestedBy({ run }: { run: ReportRun }) {
  return (
    <span className="grid min-w-0">
      <span className={run.requestedBy ? 'break-words' : 'text-muted-foreground'}>{run.requestedBy?.name ?? 'Programado'}</span>
      {run.send ? <span className="text-xs text-muted-foreground">Con envío a los destinatarios</span> : null}
    </span>
  );
}

export function RunCreated({ run }: { run: ReportRun }) {
  return <time dateTime={run.createdAt}>{formatDateTime(run.createdAt)}</time>;
}

function FileDownload({ run, file }: { run: ReportRun; file: ReportFile }) {
  const [busy, setBusy] = useState(false);
  const label = FORMAT_LABELS[file.format];
  const download = () => {
    setBusy(true);
    downloadReportFile(run, file.format)
      .catch((err: unknown) => toast({ title: 'No se pudo descargar el informe', description: err instanceof Error ? err.message : String(err), variant: 'destructive' }))
      .finally(() => setBusy(false));
  };
  return (
    <li className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
      <Button variant="outline" size="sm" onClick={download} disabled={busy} aria-label={`${label}: descargar ${run.reportName} del ${periodLabel(run)}`}>
        {busy ? <Spinner /> : <Download aria-hidden="true" />}
        {label}
      </Button>
      <span className="text-xs text-muted-foreground">
        <span className="tabular-nums">{fileSizeText(file.bytes)}</span>
        {' · '}
        {/* Focusable, so that the whole hash (its title) is also reachable from the keyboard. */}
        <span tabIndex={0} title={`SHA-256: ${file.sha256}`} data-testid="report-file-sha" data-sha256={file.sha256} className="font-mono">
          SHA-256 {shortHash(file.sha256)}
        </span>
      </span>
    </li>
  );
}

/** The files of a finished run (download, size, hash), the error of a failed one, a dash while it is made. */
export function RunFiles({ run }: { run: ReportRun }) {
  if (run.status === 'failed') return <p className="text-sm break-words text-crit-fg" data-testid="report-run-error">{run.error ?? 'Error desconocido.'}</p>;
  if (run.status !== 'done' || run.files.length === 0) return <span className="text-muted-foreground">—</span>;
  return (
    <ul className="grid gap-1.5">
      {run.files.map((f) => (
        <FileDownload key={f.format} run={run} file={f} />
      ))}
    </ul>
  );
}
