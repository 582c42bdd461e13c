import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { formatDateTime } from '@/lib/format';
import type { AuditEvent } from '../api/get-audit-events';
import { AUDIT_ACTION_LABELS, AUDIT_RESULTS, DETAIL_LABELS } from '../utils/audit-labels';

/** Names of the people and devices events refer to by id. */
export interface AuditNames {
  users: Map<string, string>;
  devices: Map<string, string>;
}

export function AuditTime({ at }: { at: string }) {
  return (
    <time dateTime={at} className="tabular-nums">
      {formatDateTime(at)}
    </time>
  );
}

export function AuditAction({ action }: { action: string }) {
  return <span className="font-medium">{AUDIT_ACTION_LABELS[action] ?? action}</span>;
}

export function AuditResult({ result }: { result: AuditEvent['result'] }) {
  const r = AUDIT_RESULTS[result] ?? { label: result, tone: 'neutral' as const };
  return <Badge tone={r.tone}>{r.label}</Badge>;
}

export function AuditUser({ event, names }: { event: AuditEvent; names: AuditNames }) {
  if (!event.username && !event.userId) return <span className="text-muted-foreground">Sistema</span>;
  const name = event.userId ? names.users.get(event.userId) : undefined;
  return (
    <span className="min-w-0">
      {name ? <span className="block truncate">{name}</span> : null}
      <span className="block truncate text-xs text-muted-foreground">@{event.username ?? event.userId}</span>
    </span>
  );
}

/** 'device:esp32_nivel_01' → the device's name with its id; 'user:…' → the person's name. */
export function AuditTarget({ target, names }: { target: string | null; names: AuditNames }) {
  if (!target) return <span className="text-muted-foreground">—</span>;
  const [kind, ...rest] = target.split(':');
  const id = rest.join(':');
  const name = kind === 'device' ? names.devices.get(id) : kind === 'user' ? names.users.get(id) : undefined;
  const kindLabel = kind === 'device' ? 'Dispositivo' : kind === 'user' ? 'Usuario' : null;
  if (!kindLabel) return <span className="font-mono text-xs break-all">{target}</span>;
  return (
    <span className="min-w-0">
      <span className="block break-words">{name ?? `${kindLabel} ${id}`}</span>
      {name ? <span className="block font-mono text-xs break-all text-muted-foreground">{id}</span> : null}
    </span>
  );
}

function detailValue(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return value ? 'sí' : 'no';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  const json = JSON.stringify(value);
  return json.length > 80 ? `${json.slice(0, 79)}…` : json;
}

/** Details as compact 'Clave: valor' pairs; the full JSON is in the title for the curious. */
export function AuditDetails({ details }: { details: AuditEvent['details'] }): ReactNode {
  const entries = details && typeof details === 'object' ? Object.entries(details).filter(([, v]) => v !== null && v !== undefined) : [];
  if (entries.length === 0) return <span className="text-muted-foreground">—</span>;
  return (
    <span title={JSON.stringify(details, null, 2)} className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs">
      {entries.map(([k, v]) => (
        <span key={k} className="min-w-0 break-all">
          <span className="text-muted-foreground">{DETAIL_LABELS[k] ?? k}:</span> <span className="font-mono">{detailValue(v)}</span>
        </span>
      ))}
    </span>
  );
}
