import type { ReactNode } from 'react';
import { CalendarClock, FileCog, Pencil, Play, Trash2 } from 'lucide-react';
import { REPORT_KIND_LABELS, type Report } from '@agua/shared';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { devicesText, FORMAT_LABELS, recipientsText, scheduleText } from '../utils/report-texts';

interface ReportListProps {
  reports: Report[];
  deviceName: (id: string) => string;
  /** Given only with write permission: without it there is no 'Generar ahora' at all. */
  onRun?: (report: Report) => void;
  /** Given only to admins (manage_devices). */
  onEdit?: (report: Report) => void;
  onDelete?: (report: Report) => void;
  /** What an empty list says (a filter that leaves nothing is not 'none defined'). */
  emptyText?: string;
}

function Detail({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? 'grid min-w-0 gap-0.5 @2xl:col-span-2' : 'grid min-w-0 gap-0.5'}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

/** The definitions, one card each (a few per utility, so no table): what, for whom, when, and its actions. */
export function ReportList({ reports, deviceName, onRun, onEdit, onDelete, emptyText = 'No hay informes definidos.' }: ReportListProps) {
  if (reports.length === 0) {
    return (
      <p data-testid="report-empty" className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">
        {emptyText}
      </p>
    );
  }
  return (
    <ul className="grid gap-3 @5xl:grid-cols-2" aria-label="Informes definidos">
      {reports.map((r) => (
        <li key={r.id} data-testid={`report-${r.id}`} className="grid content-between gap-3 rounded-xl border bg-card p-4 text-sm shadow-xs">
          <div className="grid gap-3">
            <p className="flex flex-wrap items-center gap-2">
              <FileCog aria-hidden="true" className="size-4 shrink-0 text-primary" />
              <span className="min-w-0 text-base font-semibold break-words">{r.name}</span>
              <Badge tone="outline">{REPORT_KIND_LABELS[r.kind]}</Badge>
              <Badge tone={r.enabled ? 'ok' : 'off'} data-testid="report-enabled">
                <span aria-hidden="true" className={r.enabled ? 'size-2 rounded-full bg-ok' : 'size-2 rounded-full bg-off'} />
                {r.enabled ? 'Activo' : 'Pausado'}
              </Badge>
            </p>
            <dl className="grid gap-x-4 gap-y-2 @2xl:grid-cols-2">
              <Detail label="Programación">
                <span className="inline-flex items-center gap-1.5">
                  <CalendarClock aria-hidden="true" className="size-3.5 shrink-0 text-muted-foreground" />
                  <span data-testid="report-schedule" className={r.schedule ? undefined : 'text-muted-foreground'}>
                    {scheduleText(r.kind, r.schedule)}
                  </span>
                </span>
              </Detail>
              <Detail label="Formatos">{r.formats.map((f) => FORMAT_LABELS[f]).join(', ')}</Detail>
              <Detail label="Dispositivos" wide>
                <span className="line-clamp-3" title={devicesText(r.deviceIds, deviceName)}>
                  {devicesText(r.deviceIds, deviceName)}
                </span>
              </Detail>
              <Detail label="Destinatarios">
                <span className={r.recipients.length === 0 ? 'text-muted-foreground' : undefined}>{recipientsText(r.recipients)}</span>
              </Detail>
            </dl>
          </div>
          {onRun || onEdit || onDelete ? (
            <div className="flex flex-wrap gap-2 border-t pt-3">
              {onRun ? (
                <Button size="sm" onClick={() => onRun(r)} aria-label={`Generar ahora ${r.name}`}>
                  <Play aria-hidden="true" />
                  Generar ahora
                </Button>
              ) : null}
              {onEdit ? (
                <Button variant="outline" size="sm" onClick={() => onEdit(r)} aria-label={`Editar ${r.name}`}>
                  <Pencil aria-hidden="true" />
                  Editar
                </Button>
              ) : null}
              {onDelete ? (
                <Button variant="outline" size="sm" className="text-crit-fg" onClick={() => onDelete(r)} aria-label={`Eliminar ${r.name}`}>
                  <Trash2 aria-hidden="true" />
                  Eliminar
                </Button>
              ) : null}
            </div>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
