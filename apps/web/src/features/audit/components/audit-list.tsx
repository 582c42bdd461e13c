import type { AuditEvent } from '../api/get-audit-events';
import { Badge } from '@/components/ui/badge';
import { formatDateTime } from '@/lib/format';

// Spanish names for the audit actions of API.md (UI-only labels).
const ACTION_LABELS: Record<string, string> = {
  'auth.login': 'Inicio de sesión',
  'auth.login_failed': 'Inicio de sesión fallido',
  'auth.logout': 'Cierre de sesión',
  'command.issued': 'Comando emitido',
  'command.refused': 'Comando rechazado',
  'command.completed': 'Comando completado',
  'device.created': 'Dispositivo creado',
  'device.updated': 'Dispositivo modificado',
  'device.enabled': 'Dispositivo conectado',
  'device.disabled': 'Dispositivo desconectado',
  'device.key_rotated': 'Clave renovada',
  'device.deleted': 'Dispositivo retirado',
  'user.created': 'Usuario creado',
  'user.updated': 'Usuario modificado',
  'user.deleted': 'Usuario eliminado',
  'user.password_reset': 'Contraseña restablecida',
  'user.password_changed': 'Contraseña cambiada',
};

const RESULTS = {
  ok: { label: 'Correcto', tone: 'ok' },
  denied: { label: 'Denegado', tone: 'warn' },
  failed: { label: 'Fallido', tone: 'crit' },
} as const;

export function AuditList({ events }: { events: AuditEvent[] }) {
  if (events.length === 0) return <p className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">Sin eventos registrados.</p>;
  return (
    <ol className="divide-y rounded-lg border bg-card">
      {events.map((e) => {
        const result = RESULTS[e.result] ?? { label: e.result, tone: 'neutral' as const };
        return (
          <li key={e.id} className="grid gap-1 px-4 py-3 text-sm @3xl:grid-cols-[12rem_minmax(0,1fr)_10rem_6rem] @3xl:items-center @3xl:gap-4">
            <time dateTime={e.at} className="text-xs text-muted-foreground tabular-nums">
              {formatDateTime(e.at)}
            </time>
            <span className="min-w-0">
              <span className="font-medium">{ACTION_LABELS[e.action] ?? e.action}</span>
              {e.target ? <span className="ml-2 font-mono text-xs break-all text-muted-foreground">{e.target}</span> : null}
            </span>
            <span className="truncate text-muted-foreground">
              {e.username ? `@${e.username}` : '—'}
              {e.ip ? <span className="ml-2 font-mono text-xs">{e.ip}</span> : null}
            </span>
            <Badge tone={result.tone}>{result.label}</Badge>
          </li>
        );
      })}
    </ol>
  );
}
