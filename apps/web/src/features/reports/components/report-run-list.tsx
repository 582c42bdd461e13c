import type { ReportRun } from '@agua/shared';
import { cn } from '@/lib/utils';
import { RunCreated, RunFiles, RunPeriod, RunReport, RunRequestedBy, RunStatus } from './report-run-cells';

const HEADERS = ['Informe', 'Periodo', 'Estado', 'Solicitado por', 'Creado', 'Archivos'];

/** The runs: a table on wide screens, one card per run on narrow ones (no sideways scrolling). */
export function ReportRunList({ runs, filtered }: { runs: ReportRun[]; filtered: boolean }) {
  if (runs.length === 0) {
    return (
      <p data-testid="report-run-empty" className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">
        {filtered ? 'Este informe aún no se ha generado.' : 'Aún no se ha generado ningún informe.'}
      </p>
    );
  }
  return (
    <>
      <div className="hidden overflow-hidden rounded-xl border bg-card @5xl:block">
        <table className="w-full table-fixed text-sm" data-testid="report-run-table">
          <colgroup>
            <col />
            <col className="w-[12.5rem]" />
            <col className="w-[8rem]" />
            <col className="w-[10rem]" />
            <col className="w-[11rem]" />
            <col className="w-[17rem]" />
          </colgroup>
          <thead className="border-b bg-muted/50 text-left text-xs text-muted-foreground">
            <tr>
              {HEADERS.map((h) => (
                <th key={h} scope="col" className="px-3 py-2.5 font-medium">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y">
            {runs.map((r) => (
              <tr key={r.id} data-testid={`report-run-${r.id}`} data-status={r.status} className={cn('align-top', r.status === 'failed' && 'bg-crit/6')}>
                <td className="px-3 py-2.5">
                  <RunReport run={r} />
                </td>
                <td className="px-3 py-2.5">
                  <RunPeriod run={r} />
                </td>
                <td className="px-3 py-2.5">
                  <RunStatus run={r} />
                </td>
                <td className="px-3 py-2.5">
                  <RunRequestedBy run={r} />
                </td>
                <td className="px-3 py-2.5">
                  <RunCreated run={r} />
                </td>
                <td className="px-3 py-2">
                  <RunFiles run={r} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <ol className="grid gap-2 @3xl:grid-cols-2 @5xl:hidden" data-testid="report-run-cards">
        {runs.map((r) => (
          <li
            key={r.id}
            data-testid={`report-run-${r.id}`}
            data-status={r.status}
            className={cn('grid content-start gap-2 rounded-xl border bg-card p-3 text-sm', r.status === 'failed' && 'border-crit/50 bg-crit/6')}
          >
            <div className="flex flex-wrap items-start justify-between gap-2">
              <RunReport run={r} />
              <RunStatus run={r} />
            </div>
            <dl className="grid grid-cols-[6.5rem_minmax(0,1fr)] gap-x-2 gap-y-1.5">
              <dt className="text-xs text-muted-foreground">Periodo</dt>
              <dd>
                <RunPeriod run={r} />
              </dd>
              <dt className="text-xs text-muted-foreground">Solicitado por</dt>
              <dd>
                <RunRequestedBy run={r} />
              </dd>
              <dt className="text-xs text-muted-foreground">Creado</dt>
              <dd>
                <RunCreated run={r} />
              </dd>
              {r.status === 'done' || r.status === 'failed' ? (
                <>
                  <dt className="text-xs text-muted-foreground">{r.status === 'failed' ? 'Error' : 'Archivos'}</dt>
                  <dd className="min-w-0">
                    <RunFiles run={r} />
                  </dd>
                </>
              ) : null}
            </dl>
          </li>
        ))}
      </ol>
    </>
  );
}
