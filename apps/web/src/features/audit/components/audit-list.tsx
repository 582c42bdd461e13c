import type { AuditEvent } from '../api/get-audit-events';
import { AuditAction, AuditDetails, AuditResult, AuditTarget, AuditTime, AuditUser, type AuditNames } from './audit-cells';

const HEADERS = ['Fecha y hora', 'Usuario', 'Acción', 'Objetivo', 'Resultado', 'IP', 'Detalles'];

/** The trail: a table on wide screens, one card per event on narrow ones (no sideways scrolling). */
export function AuditList({ events, names }: { events: AuditEvent[]; names: AuditNames }) {
  if (events.length === 0) {
    return <p className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">No hay eventos que coincidan con los filtros.</p>;
  }
  return (
    <>
      <div className="hidden overflow-hidden rounded-xl border bg-card @5xl:block">
        <table className="w-full table-fixed text-sm">
          <colgroup>
            <col className="w-[11rem]" />
            <col className="w-[10rem]" />
            <col className="w-[12rem]" />
            <col />
            <col className="w-[7rem]" />
            <col className="w-[8rem]" />
            <col />
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
            {events.map((e) => (
              <tr key={e.id} className="align-top">
                <td className="px-3 py-2.5 text-xs text-muted-foreground">
                  <AuditTime at={e.at} />
                </td>
                <td className="px-3 py-2.5">
                  <AuditUser event={e} names={names} />
                </td>
                <td className="px-3 py-2.5">
                  <AuditAction action={e.action} />
                </td>
                <td className="px-3 py-2.5">
                  <AuditTarget target={e.target} names={names} />
                </td>
                <td className="px-3 py-2.5">
                  <AuditResult result={e.result} />
                </td>
                <td className="px-3 py-2.5 font-mono text-xs break-all">{e.ip ?? '—'}</td>
                <td className="px-3 py-2.5">
                  <AuditDetails details={e.details} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <ol className="grid gap-2 @5xl:hidden">
        {events.map((e) => (
          <li key={e.id} className="grid gap-2 rounded-xl border bg-card p-3 text-sm">
            <div className="flex items-start justify-between gap-2">
              <AuditAction action={e.action} />
              <AuditResult result={e.result} />
            </div>
            <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 text-xs text-muted-foreground">
              <AuditTime at={e.at} />
              {e.ip ? <span className="font-mono">{e.ip}</span> : null}
            </div>
            <dl className="grid grid-cols-[5.5rem_minmax(0,1fr)] gap-x-2 gap-y-1.5">
              <dt className="text-xs text-muted-foreground">Usuario</dt>
              <dd className="min-w-0">
                <AuditUser event={e} names={names} />
              </dd>
              <dt className="text-xs text-muted-foreground">Objetivo</dt>
              <dd className="min-w-0">
                <AuditTarget target={e.target} names={names} />
              </dd>
              {e.details && Object.keys(e.details).length > 0 ? (
                <>
                  <dt className="text-xs text-muted-foreground">Detalles</dt>
                  <dd className="min-w-0">
                    <AuditDetails details={e.details} />
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
